// An agent may never answer session/cancel. When the user stops a turn, the cancel is sent and the turn
// ends locally (`cancelledLocally`) if the agent has not answered session/prompt within the grace period.
import type { Logger } from '../logger';
import type { PromptResult } from '../schema/agentResponses';

export const DEFAULT_CANCEL_GRACE_MS = 5000;

export interface CancelGrace {
  sessionId: string;
  signal: AbortSignal;
  /** Sends session/cancel (and answers pending permission requests). */
  cancel(): Promise<void>;
  graceMs?: number;
  logger: Logger;
}

export function withCancelGrace(turn: Promise<PromptResult>, grace: CancelGrace): Promise<PromptResult> {
  const { signal, logger, sessionId } = grace;
  return new Promise<PromptResult>((resolve, reject) => {
    let graceTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      void grace.cancel().catch((error: unknown) => logger.warn(`session/cancel failed: ${String(error)}`));
      graceTimer = setTimeout(() => {
        logger.warn(`The agent did not answer session/cancel for ${sessionId}; ended the turn locally`);
        resolve({ stopReason: 'cancelled', cancelledLocally: true });
      }, grace.graceMs ?? DEFAULT_CANCEL_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    turn.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort);
      if (graceTimer) clearTimeout(graceTimer);
    });
  });
}
