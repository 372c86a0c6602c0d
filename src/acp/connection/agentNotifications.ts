// The notifications the agent sends the client, validated before any listener sees them: a session/update
// without a session id is skipped, an update of an unknown type goes on as `$unsupported` (the first of each
// type is logged), an invalid elicitation/complete or auth status is logged and dropped. A listener that
// throws is logged and does not stop the others.
import type * as z from '../../shared/zod';
import type { Logger } from '../logger';
import { AuthStatusUpdateSchema, ClaudeAuthStatusSchema, type AgentAuthStatus } from '../schema/authStatus';
import { CompleteElicitationParamsSchema, type CompleteElicitationParams } from '../schema/agentRequests';
import { parseSessionNotification, summarizeIssues, type SessionNotification } from '../schema/sessionUpdate';
import type { Disposable } from './handlers';
import type { RpcChannel } from './rpcChannel';
import type { SubagentRoutes } from './subagentRoutes';

export type SessionUpdateListener = (notification: SessionNotification) => void;

/** How many unknown update types are logged at most (one line each). */
const MAX_UNSUPPORTED_LOGGED = 50;

export class Listeners<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly what: string, private readonly logger: Logger) {}

  add(listener: (value: T) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        this.logger.error(`A ${this.what} listener failed: ${String(error)}`);
      }
    }
  }
}

export class AgentNotifications {
  readonly updates: Listeners<SessionNotification>;
  readonly elicitationsComplete: Listeners<CompleteElicitationParams>;
  readonly authStatus: Listeners<AgentAuthStatus>;
  private readonly unsupportedLogged = new Set<string>();

  constructor(
    channel: RpcChannel,
    private readonly logger: Logger,
    /** Announced by `subagent_update`s; each update is tagged with the route of its session. */
    private readonly subagents: SubagentRoutes,
  ) {
    this.updates = new Listeners('session/update', logger);
    this.elicitationsComplete = new Listeners('elicitation/complete', logger);
    this.authStatus = new Listeners('auth status', logger);
    channel.onFastNotification('session/update', (params) => this.deliverUpdate(params));
    channel.onNotification('elicitation/complete', (params) => this.deliver('elicitation/complete', CompleteElicitationParamsSchema, params, this.elicitationsComplete));
    channel.onNotification('auth/status_update', (params) => this.deliver('auth/status_update', AuthStatusUpdateSchema, params, this.authStatus));
    channel.onNotification('_auth/status_update', (params) => this.deliver('_auth/status_update', ClaudeAuthStatusSchema, params, this.authStatus));
  }

  private deliverUpdate(params: unknown): void {
    const notification = parseSessionNotification(params);
    if (!notification) {
      this.logger.warn('Skipped a session/update without a sessionId or update object');
      return;
    }
    const update = notification.update;
    if (update.sessionUpdate === 'subagent_update') this.subagents.announce(notification.sessionId, update.sessionId);
    notification.route = this.subagents.routeOf(notification.sessionId);
    if (update.sessionUpdate === '$unsupported' && !this.unsupportedLogged.has(update.updateType) && this.unsupportedLogged.size < MAX_UNSUPPORTED_LOGGED) {
      this.unsupportedLogged.add(update.updateType);
      this.logger.warn(`A session/update "${update.updateType}" was not understood (${update.reason}); shown as unsupported (later ones of this type are not logged)`);
    }
    this.updates.fire(notification);
  }

  private deliver<T>(method: string, schema: z.ZodMiniType<T>, raw: unknown, listeners: Listeners<T>): void {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      this.logger.warn(`Ignored an invalid ${method}: ${summarizeIssues(parsed.error.issues)}`);
      return;
    }
    listeners.fire(parsed.data);
  }
}
