// An injectable protocol trace hook. The host turns these events into its protocol log
// (and redacts secrets there); the transport only reports what crossed the wire.

export type TraceDirection = 'send' | 'receive';
export type TraceMessageType = 'request' | 'notification' | 'response' | 'error';

export interface TraceEvent {
  direction: TraceDirection;
  type: TraceMessageType;
  /** For responses: the method of the request they answer, when known. */
  method?: string;
  id?: string | number | null;
  /** Responses only: time since the matching request crossed the wire. */
  latencyMs?: number;
  /** The whole message as parsed or as about to be serialised. Do not mutate. */
  json: unknown;
}

export type TraceHook = (event: TraceEvent) => void;

/**
 * Matches responses to requests in both directions so every response event carries
 * its method and latency. Only instantiated when a hook is set, so tracing costs
 * nothing on the hot path otherwise.
 */
export class TraceRecorder {
  private readonly sentRequests = new Map<string | number, { method: string; at: number }>();
  private readonly receivedRequests = new Map<string | number, { method: string; at: number }>();

  constructor(private readonly hook: TraceHook) {}

  record(direction: TraceDirection, message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const m = message as { id?: unknown; method?: unknown; error?: unknown };
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : m.id === null ? null : undefined;
    const now = performance.now();
    try {
      if (typeof m.method === 'string') {
        if (id === undefined) {
          this.hook({ direction, type: 'notification', method: m.method, json: message });
          return;
        }
        if (id !== null) {
          const pending = direction === 'send' ? this.sentRequests : this.receivedRequests;
          pending.set(id, { method: m.method, at: now });
        }
        this.hook({ direction, type: 'request', method: m.method, id, json: message });
        return;
      }
      // A response: match it with the request that went the other way.
      const pending = direction === 'receive' ? this.sentRequests : this.receivedRequests;
      const request = id === null || id === undefined ? undefined : pending.get(id);
      if (request && id !== null && id !== undefined) pending.delete(id);
      this.hook({
        direction,
        type: m.error !== undefined ? 'error' : 'response',
        method: request?.method,
        id,
        latencyMs: request ? now - request.at : undefined,
        json: message,
      });
    } catch {
      // A faulty trace hook must never break the connection.
    }
  }
}
