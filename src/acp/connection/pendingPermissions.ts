// Permission requests still waiting for the user, per session: session/cancel answers each of them
// `cancelled` at once (the protocol requires it), whatever the host's handler is still doing.
import type { IncomingRequestContext } from './handlers';

const CANCELLED = { outcome: { outcome: 'cancelled' } } as const;

export type PermissionAnswerer = (context: IncomingRequestContext) => unknown;

export class PendingPermissions {
  private readonly bySession = new Map<string, Set<() => void>>();

  /**
   * Runs the host's handler with a signal that also aborts on cancel(sessionId); resolves with the
   * handler's answer, or `cancelled` when the session was cancelled first (even if the handler then throws).
   */
  run(sessionId: string, context: IncomingRequestContext, answer: PermissionAnswerer): Promise<unknown> {
    const local = new AbortController();
    const signal = AbortSignal.any([context.signal, local.signal]);
    return new Promise<unknown>((resolve, reject) => {
      const answerCancelled = () => {
        local.abort();
        resolve(CANCELLED);
      };
      let pending = this.bySession.get(sessionId);
      if (!pending) this.bySession.set(sessionId, (pending = new Set()));
      const waiting = pending;
      waiting.add(answerCancelled);
      Promise.resolve()
        .then(() => answer({ ...context, signal }))
        .then(resolve, (error: unknown) => (local.signal.aborted ? resolve(CANCELLED) : reject(error)))
        .finally(() => {
          waiting.delete(answerCancelled);
          if (waiting.size === 0) this.bySession.delete(sessionId);
        });
    });
  }

  /** Answers every pending request of the session `cancelled`. */
  cancel(sessionId: string): void {
    const pending = this.bySession.get(sessionId);
    if (pending) for (const answerCancelled of [...pending]) answerCancelled();
  }
}
