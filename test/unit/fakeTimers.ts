// Fake setTimeout (node:test's mock timers) and performance.now() for unit tests that wait on a product's timer:
// simulated time moves only when the test moves it, so a backoff of seconds takes none and each moment is
// checked exactly. setImmediate stays real: it is how a test lets promise callbacks run between two moves of
// the clock.
import { mock } from 'node:test';

/** Lets every pending promise callback run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Simulated time for one test; `restore()` (in afterEach) puts the real setTimeout and performance.now back. */
export class FakeClock {
  /** Milliseconds moved since the clock was installed; what performance.now() returns meanwhile. */
  now = 0;
  private readonly performanceNow: { mock: { restore(): void } };

  constructor() {
    mock.timers.enable({ apis: ['setTimeout'] });
    this.performanceNow = mock.method(performance, 'now', () => this.now);
  }

  /**
   * Moves the clock by `ms`, firing the timers due, then lets what they started run. The timers fired see
   * the time at the end of the move (as node's mocked Date does).
   */
  async tick(ms: number): Promise<void> {
    this.now += ms;
    mock.timers.tick(ms);
    await settle();
  }

  /** Moves the clock one step at a time until `promise` settles; its value (it throws if more than `limitMs` pass). */
  async until<T>(promise: Promise<T>, limitMs: number, stepMs = 10): Promise<T> {
    let done = false;
    const watched = promise.finally(() => (done = true));
    await settle();
    while (!done) {
      if (this.now >= limitMs) throw new Error(`not settled after ${limitMs} ms of simulated time`);
      await this.tick(stepMs);
    }
    return watched;
  }

  restore(): void {
    mock.timers.reset();
    this.performanceNow.mock.restore();
  }
}
