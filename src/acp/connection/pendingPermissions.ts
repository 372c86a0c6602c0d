// Permission requests still waiting for the user, per session: session/cancel answers each of them
// `cancelled` at once (the protocol requires it), whatever the host's handler is still doing. A request the
// agent sends after the user stopped its turn, before it answered the prompt, is answered `cancelled` too:
// the user already said stop, so it is never shown.
import type { IncomingRequestContext } from './handlers';

const CANCELLED = { outcome: { outcome: 'cancelled' } } as const;

export type PermissionAnswerer = (context: IncomingRequestContext) => unknown;

export class PendingPermissions {
  private readonly bySession = new Map<string, Set<() => void>>();
  /** Sessions with a session/prompt of ours in flight. */
  private readonly prompting = new Set<string>();
  /** Of those, the ones the user stopped. */
  private readonly stopping = new Set<string>();

  /** A session/prompt of ours is in flight until the returned function is called (the agent answered it). */
  turnStarted(sessionId: string): () => void {
    this.prompting.add(sessionId);
    this.stopping.delete(sessionId);
    return () => {
      this.prompting.delete(sessionId);
      this.stopping.delete(sessionId);
    };
  }

  /**
   * Runs the host's handler with a signal that also aborts on cancel(sessionId); resolves with the
   * handler's answer, or `cancelled` when the session was cancelled first (even if the handler then throws).
   */
  run(sessionId: string, context: IncomingRequestContext, answer: PermissionAnswerer): Promise<unknown> {
    if (this.stopping.has(sessionId)) return Promise.resolve(CANCELLED);
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

  /** Answers every pending request of the session `cancelled`, and those still to come in its stopped turn. */
  cancel(sessionId: string): void {
    if (this.prompting.has(sessionId)) this.stopping.add(sessionId);
    const pending = this.bySession.get(sessionId);
    if (pending) for (const answerCancelled of [...pending]) answerCancelled();
  }
}
