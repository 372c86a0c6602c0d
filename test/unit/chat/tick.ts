// The chat tests' wait for what an action started to reach the webview, in simulated time. The code under test
// handles an action in promise callbacks and ends by scheduling a flush: a setTimeout at most the flush delay
// out, reckoned with performance.now(). `useFakeClock()` fakes both for each test of the describe that calls
// it, so `tick()` takes the same steps however loaded the machine is: let the handling run, move the clock by
// the flush delay (the flush fires), let what the flush started run.
import { FakeClock, settle } from '../fakeTimers';

/** The flush delay the chat tests give the controller and channel. */
export const FLUSH_DELAY_MS = 1;

let clock: FakeClock | undefined;

/** Installs a FakeClock before each test of the calling describe and restores it after; the current one. */
export function useFakeClock(): () => FakeClock {
  beforeEach(() => {
    clock = new FakeClock();
  });
  afterEach(() => {
    clock?.restore();
    clock = undefined;
  });
  return () => {
    if (!clock) throw new Error('no FakeClock: call useFakeClock() in the describe');
    return clock;
  };
}

export async function tick(): Promise<void> {
  if (!clock) throw new Error('tick() needs useFakeClock() in the describe');
  await settle();
  await clock.tick(FLUSH_DELAY_MS);
}
