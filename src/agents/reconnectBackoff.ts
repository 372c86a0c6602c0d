/*
 * When the connection to a remote agent drops, Switchboard reconnects on its own, waiting longer
 * after each failed attempt (1 s, 2 s, 4 s, ... up to `maxDelayMs`), and gives up after
 * `maxAttempts` so a server that is gone for good is not polled forever; Reconnect starts afresh.
 */

export interface ReconnectBackoffOptions {
  /** Delay before the first attempt (default 1 s); doubles each attempt. */
  readonly initialDelayMs?: number;
  /** Cap on the delay (default 30 s). */
  readonly maxDelayMs?: number;
  /** Attempts before giving up (default 6: about a minute in all). */
  readonly maxAttempts?: number;
}

export class ReconnectBackoff {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxAttempts: number;
  private attempts = 0;

  constructor(options: ReconnectBackoffOptions = {}) {
    this.initialDelayMs = options.initialDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 6;
    if (!(this.initialDelayMs > 0) || !(this.maxDelayMs >= this.initialDelayMs)) throw new RangeError('delays must be positive, max >= initial');
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw new RangeError('maxAttempts must be a positive integer');
  }

  /** The next attempt's number (1-based) and how long to wait before it, or undefined when out of attempts. */
  next(): { attempt: number; delayMs: number } | undefined {
    if (this.attempts >= this.maxAttempts) return undefined;
    const delayMs = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** this.attempts);
    this.attempts++;
    return { attempt: this.attempts, delayMs };
  }

  /** After a successful connection, or when the user asks to reconnect. */
  reset(): void {
    this.attempts = 0;
  }
}
