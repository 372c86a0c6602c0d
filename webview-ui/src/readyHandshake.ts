// The webview's half of the ready handshake: `ready` is posted, then again after 2, 4, 8, 8… s until the
// host's `init` arrives. A `ready` or an `init` lost on the way (a webview still starting on a loaded
// machine, a postMessage the workbench dropped) would otherwise leave the chat at "Connecting…" for good.
// Asking again is harmless: the host answers every `ready` with a snapshot.

/** Waits between one `ready` and the next while no `init` came; the last one repeats. */
export const READY_RETRY_MS: readonly number[] = [2000, 4000, 8000];

export class ReadyHandshake {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private answered = false;

  constructor(
    /** Posts `ready`; `attempt` counts from 1. */
    private readonly sendReady: (attempt: number) => void,
    private readonly delaysMs: readonly number[] = READY_RETRY_MS,
  ) {}

  /** Posts `ready` now and keeps asking until `initReceived`. */
  start(): void {
    this.answered = false;
    this.attempts = 0;
    this.ask();
  }

  /** The host's `init` arrived: no more asking. */
  initReceived(): void {
    this.answered = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private ask(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.sendReady(++this.attempts);
    const delay = this.delaysMs[Math.min(this.attempts - 1, this.delaysMs.length - 1)];
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.answered) this.ask();
    }, delay);
  }
}
