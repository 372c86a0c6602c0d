// The typed ACP client: the whole v1 client->agent surface, handler registration for
// agent->client requests, and the agent's notifications. Pure Node: give it the agent's
// stdout and stdin (or any pair of streams). The policies it applies live beside it:
// capability gating (agentFeatures, sessionSetup, promptContent, clientCapabilities), the
// cancel grace (cancelGrace), pending permissions (pendingPermissions), sign-in errors
// (agentErrors) and notification validation (agentNotifications).
import type { Readable, Writable } from 'node:stream';
import type { ClientCapabilities, ContentBlock } from '@agentclientprotocol/sdk';
import type * as z from '../../shared/zod';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ErrorCode, InvalidResponseError, ProtocolVersionError, type ConnectionClosedError } from '../errors';
import { silentLogger, type Logger } from '../logger';
import * as R from '../schema/agentResponses';
import type { CompleteElicitationParams } from '../schema/agentRequests';
import { summarizeIssues } from '../schema/sessionUpdate';
import { AuthStatusUpdateSchema, type AgentAuthStatus } from '../schema/authStatus';
import { ListProvidersResultSchema, type ListProvidersResult, type SetProviderParams } from '../schema/providers';
import { STEERING_METHOD, SteerResultSchema, type SteerResult } from '../schema/steering';
import type { FramingOption } from '../transport/frameDecoder';
import type { TraceHook } from '../transport/trace';
import { agentErrorFor, ignoringNotFound } from './agentErrors';
import { agentSupports, requireSupport, type OptionalMethod } from './agentFeatures';
import { AgentNotifications, type SessionUpdateListener } from './agentNotifications';
import { withCancelGrace } from './cancelGrace';
import { clientCapabilitiesFor } from './clientCapabilities';
import { SESSION_OPENERS, SubagentRoutes } from './subagentRoutes';
import {
  CLIENT_REQUEST_PARAMS,
  type ClientRequestHandlers,
  type ClientRequestMethod,
  type Disposable,
  type ExtNotificationHandler,
  type ExtRequestHandler,
} from './handlers';
import { PendingPermissions, type PermissionAnswerer } from './pendingPermissions';
import { restrictPromptContent } from './promptContent';
import { RpcChannel, type SendOptions } from './rpcChannel';
import { sessionSetupFor, type SessionParams, type SessionSetup } from './sessionSetup';

export type { SessionParams } from './sessionSetup';
export type { SessionUpdateListener } from './agentNotifications';

export const PROTOCOL_VERSION = 1;

export interface AcpClientOptions {
  logger?: Logger;
  /** Called for every message in and out (the host's protocol log; it redacts). */
  trace?: TraceHook;
  framing?: FramingOption;
  maxMessageBytes?: number;
}

export interface InitializeOptions {
  clientInfo: { name: string; version: string; title?: string };
  /** The host can run `terminal` auth methods (advertises auth.terminal). */
  terminalAuth?: boolean;
  /** Replace the capabilities derived from the registered handlers. */
  clientCapabilities?: ClientCapabilities;
}

export type RequestOptions = Pick<SendOptions, 'signal' | 'timeoutMs'>;

export interface PromptOptions {
  signal?: AbortSignal;
  /** After cancelling, how long to wait for the agent's answer before ending the turn locally. */
  cancelGraceMs?: number;
  /** Send unsupported embedded resources as resource_link instead of failing. */
  downgradeResources?: boolean;
}

export class AcpClientConnection {
  private readonly channel: RpcChannel;
  private readonly logger: Logger;
  private readonly notifications: AgentNotifications;
  private readonly registered = new Set<ClientRequestMethod>();
  private readonly pendingPermissions = new PendingPermissions();
  private agentInfo: R.InitializeResult | undefined;
  /** Which sessions are children of which (subagents), for routing their updates and requests. */
  private readonly subagents = new SubagentRoutes();

  constructor(input: Readable, output: Writable, options: AcpClientOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.channel = new RpcChannel(input, output, {
      logger: this.logger,
      trace: options.trace,
      framing: options.framing,
      maxMessageBytes: options.maxMessageBytes,
    });
    this.channel.setErrorMapper((method, error) => agentErrorFor(method, error, this.agentInfo?.authMethods ?? []));
    this.notifications = new AgentNotifications(this.channel, this.logger, this.subagents);
  }

  /** Over a spawned agent: its stdout is our input, its stdin our output. */
  static forChildProcess(child: { stdout: Readable | null; stdin: Writable | null }, options?: AcpClientOptions): AcpClientConnection {
    if (!child.stdout || !child.stdin) throw new Error('The agent process must be spawned with piped stdin and stdout');
    return new AcpClientConnection(child.stdout, child.stdin, options);
  }

  /** Resolves (never rejects) when the connection closes, with the reason. */
  get closed(): Promise<ConnectionClosedError> {
    return this.channel.closed;
  }

  get isClosed(): boolean {
    return this.channel.isClosed;
  }

  /** The agent's initialize result (capabilities, auth methods, info), once initialized. */
  get agent(): R.InitializeResult | undefined {
    return this.agentInfo;
  }

  close(reason?: Error): void {
    this.channel.close(reason);
  }

  /** Whether the agent announced `method` (false until initialized). */
  supports(method: OptionalMethod): boolean {
    return agentSupports(this.agentInfo?.agentCapabilities, method);
  }

  // ---- agent -> client --------------------------------------------------------------

  onSessionUpdate(listener: SessionUpdateListener): Disposable {
    return this.notifications.updates.add(listener);
  }

  /** Register the handler for one agent->client method. Register before initialize(). */
  handle<M extends ClientRequestMethod>(method: M, handler: ClientRequestHandlers[M]): Disposable {
    const schema = CLIENT_REQUEST_PARAMS[method] as z.ZodMiniType<unknown>;
    const run = handler as (params: unknown, context: Parameters<ClientRequestHandlers[M]>[1]) => unknown;
    this.registered.add(method);
    const registration = this.channel.onRequest(method, async (raw, context) => {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        throw new ResponseError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${summarizeIssues(parsed.error.issues)}`, {
          method,
          issues: parsed.error.issues,
        });
      }
      const named = (parsed.data as { sessionId?: unknown }).sessionId;
      const routed = typeof named === 'string' ? { ...context, route: this.subagents.routeOf(named) } : context;
      if (method === 'session/request_permission') {
        const answer: PermissionAnswerer = (scoped) => run(parsed.data, scoped);
        return this.pendingPermissions.run(named as string, routed, answer);
      }
      const result = await run(parsed.data, routed);
      return result ?? {};
    });
    return {
      dispose: () => {
        registration.dispose();
        this.registered.delete(method);
      },
    };
  }

  handleAll(handlers: Partial<ClientRequestHandlers>): Disposable {
    const registrations = (Object.keys(handlers) as ClientRequestMethod[]).map((method) =>
      this.handle(method, handlers[method] as ClientRequestHandlers[typeof method]),
    );
    return { dispose: () => registrations.forEach((r) => r.dispose()) };
  }

  /** Extension request from the agent (`_` prefix). */
  onExtRequest(method: string, handler: ExtRequestHandler): Disposable {
    assertExtMethod(method);
    return this.channel.onRequest(method, async (params, context) => (await handler(params, context)) ?? {});
  }

  onExtNotification(method: string, handler: ExtNotificationHandler): Disposable {
    assertExtMethod(method);
    return this.channel.onNotification(method, handler);
  }

  onElicitationComplete(listener: (params: CompleteElicitationParams) => void): Disposable {
    return this.notifications.elicitationsComplete.add(listener);
  }

  /** Who the agent says it is signed in as (`auth/status_update`, or Claude's `_auth/status_update`). */
  onAuthStatus(listener: (status: AgentAuthStatus) => void): Disposable {
    return this.notifications.authStatus.add(listener);
  }

  // ---- client -> agent --------------------------------------------------------------

  async initialize(options: InitializeOptions, request?: RequestOptions): Promise<R.InitializeResult> {
    const clientCapabilities = options.clientCapabilities ?? clientCapabilitiesFor(this.registered, { terminalAuth: options.terminalAuth });
    const result = await this.call('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities, clientInfo: options.clientInfo }, R.InitializeResultSchema, request);
    if (result.protocolVersion !== PROTOCOL_VERSION) {
      const error = new ProtocolVersionError(result.protocolVersion, PROTOCOL_VERSION);
      this.logger.error(error.message);
      this.close(error);
      throw error;
    }
    this.agentInfo = result;
    return result;
  }

  /** `meta` carries what some methods need, e.g. Gemini CLI's `{"api-key": "..."}` (redacted in the protocol log). */
  async authenticate(methodId: string, request?: RequestOptions, meta?: Record<string, unknown>): Promise<void> {
    await this.call('authenticate', meta ? { methodId, _meta: meta } : { methodId }, R.EmptyResultSchema, request);
  }

  async logout(request?: RequestOptions): Promise<void> {
    this.require('logout');
    await this.call('logout', {}, R.EmptyResultSchema, request);
  }

  /** Unstable `auth/status`: asks who the agent is signed in as. */
  async authStatus(request?: RequestOptions): Promise<AgentAuthStatus> {
    this.require('auth/status');
    return this.call('auth/status', {}, AuthStatusUpdateSchema, request);
  }

  /** Unstable `session/fork`: a new session with the whole context of `sessionId` (the protocol has no fork point). */
  async forkSession(sessionId: string, params: SessionParams, request?: RequestOptions): Promise<R.ForkSessionResult> {
    this.require('session/fork');
    return this.call('session/fork', { sessionId, ...this.sessionSetup(params, 'session/fork') }, R.ForkSessionResultSchema, request);
  }

  /** Unstable `session/set_title`; resolves with the title the agent stored. */
  async setSessionTitle(sessionId: string, title: string, request?: RequestOptions): Promise<string> {
    this.require('session/set_title');
    return (await this.call('session/set_title', { sessionId, title }, R.SetSessionTitleResultSchema, request)).title;
  }

  /** Unstable `providers/list`: the agent's configurable LLM providers and where each routes now. */
  async listProviders(request?: RequestOptions): Promise<ListProvidersResult> {
    this.require('providers/list');
    return this.call('providers/list', {}, ListProvidersResultSchema, request);
  }

  /** Unstable `providers/set`: replaces the provider's whole configuration (`headers` may hold credentials). */
  async setProvider(params: SetProviderParams, request?: RequestOptions): Promise<void> {
    this.require('providers/set');
    await this.call('providers/set', params, R.EmptyResultSchema, request);
  }

  /** Unstable `providers/disable` (never for a provider the agent lists as `required`). */
  async disableProvider(providerId: string, request?: RequestOptions): Promise<void> {
    this.require('providers/disable');
    await this.call('providers/disable', { providerId }, R.EmptyResultSchema, request);
  }

  async newSession(params: SessionParams, request?: RequestOptions): Promise<R.NewSessionResult> {
    return this.call('session/new', this.sessionSetup(params, 'session/new'), R.NewSessionResultSchema, request);
  }

  /** Resolves after the agent has replayed the whole session (its updates arrive first). */
  async loadSession(sessionId: string, params: SessionParams, request?: RequestOptions): Promise<R.LoadSessionResult> {
    this.require('session/load');
    return this.call('session/load', { sessionId, ...this.sessionSetup(params, 'session/load') }, R.LoadSessionResultSchema, request);
  }

  async resumeSession(sessionId: string, params: SessionParams, request?: RequestOptions): Promise<R.ResumeSessionResult> {
    this.require('session/resume');
    return this.call('session/resume', { sessionId, ...this.sessionSetup(params, 'session/resume') }, R.ResumeSessionResultSchema, request);
  }

  /** One page of the agent's sessions. */
  async listSessions(params: { cwd?: string; cursor?: string } = {}, request?: RequestOptions): Promise<R.ListSessionsResult> {
    this.require('session/list');
    return this.call('session/list', params, R.ListSessionsResultSchema, request);
  }

  /** Every session, following `nextCursor` page by page (stops if the agent repeats a cursor). */
  async *listAllSessions(params: { cwd?: string } = {}, request?: RequestOptions): AsyncGenerator<R.SessionInfo> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.listSessions(cursor === undefined ? params : { ...params, cursor }, request);
      yield* page.sessions;
      cursor = page.nextCursor;
      if (cursor !== undefined && seen.has(cursor)) {
        this.logger.warn(`The agent repeated session/list cursor ${cursor}; stopped paging`);
        return;
      }
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
  }

  /** Closing an already-gone session is not an error (-32002 is treated as done). */
  async closeSession(sessionId: string, request?: RequestOptions): Promise<void> {
    this.require('session/close');
    await ignoringNotFound(this.call('session/close', { sessionId }, R.EmptyResultSchema, request));
  }

  async deleteSession(sessionId: string, request?: RequestOptions): Promise<void> {
    this.require('session/delete');
    await ignoringNotFound(this.call('session/delete', { sessionId }, R.EmptyResultSchema, request));
  }

  async setMode(sessionId: string, modeId: string, request?: RequestOptions): Promise<void> {
    await this.call('session/set_mode', { sessionId, modeId }, R.EmptyResultSchema, request);
  }

  /** A select option takes a value id (string), a boolean option a boolean. */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean, request?: RequestOptions): Promise<R.SetConfigOptionResult> {
    const params = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    return this.call('session/set_config_option', params, R.SetConfigOptionResultSchema, request);
  }

  /** Legacy model switch (agents that send `models` instead of a model config option). */
  async setModel(sessionId: string, modelId: string, request?: RequestOptions): Promise<void> {
    await this.call('session/set_model', { sessionId, modelId }, R.EmptyResultSchema, request);
  }

  /**
   * One prompt turn. Aborting `signal` sends `session/cancel` and answers pending
   * permission requests `cancelled`; if the agent then does not answer within
   * `cancelGraceMs`, the turn ends locally with `cancelledLocally: true`.
   */
  async prompt(sessionId: string, prompt: ContentBlock[], options: PromptOptions = {}): Promise<R.PromptResult> {
    const content = restrictPromptContent(prompt, this.capabilities().promptCapabilities, { downgradeResources: options.downgradeResources });
    const answered = this.pendingPermissions.turnStarted(sessionId);
    const turn = this.call('session/prompt', { sessionId, prompt: content }, R.PromptResultSchema, { cancelOnAbort: false });
    turn.then(answered, answered);
    const signal = options.signal;
    if (!signal) return turn;
    return withCancelGrace(turn, { sessionId, signal, cancel: () => this.cancel(sessionId), graceMs: options.cancelGraceMs, logger: this.logger });
  }

  /**
   * `_session/steering`: injects `prompt` into the session's running turn. When no turn runs the agent is
   * asked to answer `promptRequired` and leave the message to us (sent then as a normal session/prompt).
   */
  async steer(sessionId: string, prompt: ContentBlock[], request?: RequestOptions): Promise<SteerResult> {
    this.require(STEERING_METHOD);
    const content = restrictPromptContent(prompt, this.capabilities().promptCapabilities, { downgradeResources: true });
    const params = { sessionId, prompt: content, _meta: { steering: { idleBehavior: 'promptRequired' } } };
    return this.call(STEERING_METHOD, params, SteerResultSchema, request);
  }

  /** The child sessions (subagents) announced below `sessionId`, at any depth, deepest first. */
  subagentsOf(sessionId: string): string[] {
    return this.subagents.descendantsOf(sessionId);
  }

  /** Ask the agent to stop the session's turn; pending permission requests get `cancelled`. */
  async cancel(sessionId: string): Promise<void> {
    this.pendingPermissions.cancel(sessionId);
    await this.channel.notify('session/cancel', { sessionId });
  }

  /** Call an agent extension method (`_` prefix). */
  async extMethod(method: string, params: Record<string, unknown> = {}, request?: RequestOptions): Promise<unknown> {
    assertExtMethod(method);
    return this.channel.request(method, params, request);
  }

  async extNotification(method: string, params: Record<string, unknown> = {}): Promise<void> {
    assertExtMethod(method);
    return this.channel.notify(method, params);
  }

  // ---- internals --------------------------------------------------------------------

  private async call<T extends z.ZodMiniType>(method: string, params: unknown, schema: T, options?: SendOptions): Promise<z.output<T>> {
    const request = this.channel.request(method, params, options);
    const named = method === 'session/load' || method === 'session/resume' ? (params as { sessionId: string }).sessionId : undefined;
    const raw = await (SESSION_OPENERS.has(method) ? this.subagents.opens(request, named) : request);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new InvalidResponseError(method, parsed.error.issues);
    return parsed.data;
  }

  private sessionSetup(params: SessionParams, method: string): SessionSetup {
    return sessionSetupFor(params, this.capabilities(), method, this.logger);
  }

  private capabilities(): R.AgentCapabilities {
    const closed = this.channel.closeReason;
    if (closed) throw closed;
    if (!this.agentInfo) throw new Error('Call initialize() before other ACP requests');
    return this.agentInfo.agentCapabilities;
  }

  /** Refuses a call the agent did not announce, before anything is sent. */
  private require(method: OptionalMethod): void {
    requireSupport(this.capabilities(), method);
  }
}

function assertExtMethod(method: string): void {
  if (!method.startsWith('_')) throw new Error(`Extension methods must start with "_": ${method}`);
}
