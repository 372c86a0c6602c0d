// A session's error banner and what its Retry sends again: one owner for both. The Session says when (a turn
// begins or fails, the user dismisses, a request of theirs failed) and tells the chat it changed; this says
// what the banner shows, what the transcript records and what the log keeps.
import { AuthRequiredError, errorMessage } from '../../../acp';
import type { SessionError } from '../../../shared/chatState';
import type { ComposerPrompt } from '../../../shared/messages';
import type { SessionHost } from '../sessionHost';

/** The session whose banner this is: what a failed turn says and where. */
export interface ErrorSession {
  readonly agentId: string;
  readonly key: string;
  /** Said in the transcript, where the failed message shows. */
  recordError(message: string, detail?: string): void;
}

export class TurnErrors {
  private shown: SessionError | undefined;
  /** The prompt of the turn that failed with the error shown (what "Retry" sends again, attachments included). */
  private retry: ComposerPrompt | undefined;

  constructor(
    private readonly host: Pick<SessionHost, 'agentCrashed' | 'offerRestart'> & { readonly log: Pick<SessionHost['log'], 'error'> },
    private readonly session: ErrorSession,
  ) {}

  get error(): SessionError | undefined {
    return this.shown;
  }

  get failedPrompt(): ComposerPrompt | undefined {
    return this.retry;
  }

  /** A turn begins, or the user dismissed the banner. */
  clear(): void {
    this.shown = undefined;
    this.retry = undefined;
  }

  /** Something the user asked of the session failed (or its load did): said in its banner. */
  show(error: SessionError): void {
    this.shown = error;
  }

  /** The turn failed: said once, in the transcript and the banner (the crash banner has a crash's details). */
  fail(error: unknown): void {
    const { agentId, key } = this.session;
    if (error instanceof AuthRequiredError) {
      this.shown = { message: `${agentId} needs you to sign in. Choose a sign-in method above; your message is sent again once you have signed in.` };
      return;
    }
    const message = errorMessage(error);
    this.host.log.error(`Turn failed in ${key}: ${message}`);
    if (this.host.agentCrashed(agentId)) {
      this.shown = { message: `Not sent: ${message}` };
      return;
    }
    this.session.recordError(message);
    this.shown = { message };
  }

  /** Stop ended the turn here: the agent did not confirm it, and may still be working. */
  cancelUnconfirmed(): void {
    const { agentId } = this.session;
    this.session.recordError(`${agentId} did not confirm the cancellation; the turn was ended here.`, 'If the agent keeps working, use Restart Agent.');
    this.host.offerRestart(agentId);
  }

  /** A failed turn (not one waiting for sign-in, which sends it again itself) can be sent again. */
  offerRetry(prompt: ComposerPrompt, error: unknown): void {
    if (!this.shown || error instanceof AuthRequiredError) return;
    this.shown = { ...this.shown, retryable: true };
    this.retry = prompt;
  }
}
