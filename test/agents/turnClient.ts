// Runs one real agent from npm against the scripted model endpoint through Switchboard's own protocol
// and process layers, in plain Node: a minimal client that answers fs/* from disk and permission
// requests with a chosen option, records every session/update, fs request and permission request, and
// stops the agent with its process tree. The host and e2e tiers run the same agents through the product.
import * as fs from 'fs';
import * as path from 'path';
import { AcpClientConnection, type SessionNotification } from '../../src/acp';
import type { RequestPermissionParams } from '../../src/acp';
import { startAgentProcess, type AgentProcess } from '../../src/agents';
import { ModelEndpoint, type ApiHandler } from '../fixtures/modelEndpoint/endpoint';
import { agentCommand, credentialFreeEnv, prepareAgentEnv, type PrepareOptions, type RealAgentRecipe } from '../fixtures/realAgents/recipe';
import { makeTempDir, removeDir } from './realAgentSetup';

/** Generous: a real agent's first start on a loaded 2-core machine can take tens of seconds. */
export const TURN_TIMEOUT_MS = 120_000;

export interface FsCall {
  readonly method: 'fs/read_text_file' | 'fs/write_text_file';
  readonly path: string;
  readonly content?: string;
}

export interface TurnClientOptions {
  readonly recipe: RealAgentRecipe;
  readonly handlers: readonly ApiHandler[];
  readonly permissions?: PrepareOptions['permissions'];
  readonly signedOut?: boolean;
  /** Files to create in the project folder before the agent starts (relative path → content). */
  readonly files?: Readonly<Record<string, string>>;
  /** Picks the option to answer a permission request with (default: the first allow_once, else allow_always). */
  readonly choosePermission?: (request: RequestPermissionParams) => string | undefined;
  /** Replaces the client capabilities Switchboard would derive (e.g. to add `_meta.terminal_output`). */
  readonly clientMeta?: Record<string, unknown>;
}

export class TurnClient {
  readonly updates: SessionNotification[] = [];
  readonly fsCalls: FsCall[] = [];
  readonly permissionRequests: RequestPermissionParams[] = [];
  readonly extRequests: Array<{ method: string; params: unknown }> = [];

  private constructor(
    readonly endpoint: ModelEndpoint,
    readonly process: AgentProcess,
    readonly connection: AcpClientConnection,
    readonly home: string,
    readonly cwd: string,
  ) {}

  static async start(options: TurnClientOptions): Promise<TurnClient> {
    const endpoint = await ModelEndpoint.start(options.handlers);
    const home = makeTempDir(`switchboard-${options.recipe.id}-home-`);
    const cwd = fs.realpathSync(makeTempDir(`switchboard-${options.recipe.id}-project-`));
    for (const [file, content] of Object.entries(options.files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
      fs.writeFileSync(path.join(cwd, file), content);
    }
    const env = prepareAgentEnv(options.recipe, { home, cwd, endpointUrl: endpoint.url, permissions: options.permissions ?? 'ask', signedOut: options.signedOut });
    const { command, args } = agentCommand(options.recipe.id);
    const proc = await startAgentProcess({
      definition: { name: options.recipe.label, command, args, env: { HOME: home, USERPROFILE: home, ...env } },
      cwd,
      baseEnv: credentialFreeEnv(),
      stderrLineLimit: 400,
    });
    const connection = AcpClientConnection.forChildProcess(proc);
    const client = new TurnClient(endpoint, proc, connection, home, cwd);
    client.register(options);
    return client;
  }

  /** initialize, then session/new in the project folder; returns the session id and the answers. */
  async openSession(options: Pick<TurnClientOptions, 'clientMeta'> = {}) {
    const init = await this.withStderr(
      this.connection.initialize(
        { clientInfo: { name: 'switchboard-tests', version: '0.0.0' }, terminalAuth: true, clientCapabilities: this.capabilities(options.clientMeta) },
        { timeoutMs: TURN_TIMEOUT_MS },
      ),
    );
    const session = await this.withStderr(this.connection.newSession({ cwd: this.cwd }, { timeoutMs: TURN_TIMEOUT_MS }));
    return { init, session };
  }

  /** One prompt turn; resolves with the prompt response. */
  prompt(sessionId: string, text: string, signal?: AbortSignal) {
    return this.withStderr(this.connection.prompt(sessionId, [{ type: 'text', text }], { signal }));
  }

  /** The updates of one kind, in order. */
  updatesOf(kind: string) {
    return this.updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind);
  }

  /** All streamed agent text, joined. */
  agentText(): string {
    return this.updatesOf('agent_message_chunk')
      .map((u) => ('content' in u && u.content && typeof u.content === 'object' && 'text' in u.content ? String(u.content.text) : ''))
      .join('');
  }

  /** The agent's last stderr lines and the endpoint's log, for failure messages. */
  diagnostics(): string {
    return `--- agent stderr (last 40 lines) ---\n${this.process.stderrTail().slice(-40).join('\n')}\n--- model endpoint log ---\n${this.endpoint.describeLog()}`;
  }

  async stop(): Promise<void> {
    await this.process.stop().catch(() => undefined);
    this.connection.close();
    await this.endpoint.close();
    removeDir(this.home);
    removeDir(this.cwd);
  }

  async withStderr<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (error instanceof Error) error.message += `\n${this.diagnostics()}`;
      throw error;
    }
  }

  private capabilities(meta: Record<string, unknown> | undefined) {
    return {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: false,
      auth: { terminal: true },
      _meta: { 'terminal-auth': true, ...meta },
    };
  }

  private register(options: TurnClientOptions): void {
    this.connection.onSessionUpdate((n) => this.updates.push(n));
    this.connection.handleAll({
      'fs/read_text_file': (params) => {
        this.fsCalls.push({ method: 'fs/read_text_file', path: params.path });
        const lines = fs.readFileSync(params.path, 'utf8').split('\n');
        const start = Math.max(0, (params.line ?? 1) - 1);
        const content = lines.slice(start, params.limit ? start + params.limit : undefined).join('\n');
        return { content };
      },
      'fs/write_text_file': (params) => {
        this.fsCalls.push({ method: 'fs/write_text_file', path: params.path, content: params.content });
        fs.mkdirSync(path.dirname(params.path), { recursive: true });
        fs.writeFileSync(params.path, params.content);
        return {};
      },
      'session/request_permission': (params) => {
        this.permissionRequests.push(params);
        const chosen = options.choosePermission?.(params) ?? defaultAllow(params);
        return chosen ? { outcome: { outcome: 'selected', optionId: chosen } } : { outcome: { outcome: 'cancelled' } };
      },
    });
  }
}

function defaultAllow(request: RequestPermissionParams): string | undefined {
  const byKind = (kind: string) => request.options.find((o) => o.kind === kind)?.optionId;
  return byKind('allow_once') ?? byKind('allow_always');
}
