/*
 * An agent that crashes on start (bad config, missing login) would otherwise be restarted forever.
 * After `maxCrashes` crashes within `windowMs` we stop and explain; a restart the user asks for
 * (the Restart button / command) calls `reset()` and gets a fresh budget.
 */

export interface RestartPolicyOptions {
  /** Crashes allowed within the window before restarts are refused (default 5). */
  readonly maxCrashes?: number;
  /** Sliding window (default 3 minutes). */
  readonly windowMs?: number;
  /** Injectable clock (ms), for tests. */
  readonly now?: () => number;
}

export type RestartDecision =
  | { readonly allowed: true; /** crashes in the window, this one included */ readonly crashesInWindow: number; readonly remaining: number }
  | { readonly allowed: false; readonly crashesInWindow: number; /** user-facing explanation */ readonly reason: string; /** when the oldest crash leaves the window */ readonly retryAfterMs: number };

export class RestartPolicy {
  readonly maxCrashes: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private crashes: number[] = [];

  constructor(options: RestartPolicyOptions = {}) {
    this.maxCrashes = options.maxCrashes ?? 5;
    this.windowMs = options.windowMs ?? 3 * 60_000;
    this.now = options.now ?? Date.now;
    if (!Number.isInteger(this.maxCrashes) || this.maxCrashes < 1) throw new RangeError('maxCrashes must be a positive integer');
    if (!(this.windowMs > 0)) throw new RangeError('windowMs must be positive');
  }

  /** Records a crash and says whether an automatic restart may follow. */
  recordCrash(agentName = 'The agent'): RestartDecision {
    const now = this.now();
    this.crashes = this.crashes.filter((time) => now - time < this.windowMs);
    this.crashes.push(now);
    const count = this.crashes.length;
    if (count < this.maxCrashes) return { allowed: true, crashesInWindow: count, remaining: this.maxCrashes - count };
    return {
      allowed: false,
      crashesInWindow: count,
      retryAfterMs: Math.max(0, this.crashes[count - this.maxCrashes] + this.windowMs - now),
      reason:
        `${agentName} crashed ${count} times in ${formatDuration(this.windowMs)}, so Switchboard stopped restarting it. ` +
        `Its last error output is in its log; fix the cause (command, arguments, sign-in) and use Restart Agent to try again.`,
    };
  }

  /** Forget past crashes (after a restart the user asked for, or a healthy run). */
  reset(): void {
    this.crashes = [];
  }
}

function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms % 1000 === 0) return `${ms / 1000} seconds`;
  return `${ms} ms`;
}
