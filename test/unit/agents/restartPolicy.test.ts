import * as assert from 'assert';
import { RestartPolicy } from '../../../src/agents/restartPolicy';

describe('restartPolicy', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('allows restarts until the 5th crash within 3 minutes, then refuses with an explanation', () => {
    const policy = new RestartPolicy({ now: clock });
    for (let crash = 1; crash <= 4; crash++) {
      assert.deepStrictEqual(policy.recordCrash('Gemini CLI'), { allowed: true, crashesInWindow: crash, remaining: 5 - crash });
      now += 10_000;
    }
    const refused = policy.recordCrash('Gemini CLI');
    assert.strictEqual(refused.allowed, false);
    assert.ok(!refused.allowed);
    assert.strictEqual(refused.crashesInWindow, 5);
    assert.strictEqual(
      refused.reason,
      'Gemini CLI crashed 5 times in 3 minutes, so Switchboard stopped restarting it. Its last error output is in its log; fix the cause (command, arguments, sign-in) and use Restart Agent to try again.',
    );
    // The first crash (at 1,000,000) leaves the window at 1,180,000; now is 1,040,000.
    assert.strictEqual(refused.retryAfterMs, 140_000);
  });

  it('crashes older than the window do not count (sliding window)', () => {
    const policy = new RestartPolicy({ now: clock });
    for (let crash = 0; crash < 4; crash++) policy.recordCrash();
    now += 3 * 60_000; // the first four leave the window exactly now
    assert.deepStrictEqual(policy.recordCrash(), { allowed: true, crashesInWindow: 1, remaining: 4 });
  });

  it('spread-out crashes never hit the cap', () => {
    const policy = new RestartPolicy({ now: clock, maxCrashes: 3, windowMs: 60_000 });
    for (let crash = 0; crash < 20; crash++) {
      assert.strictEqual(policy.recordCrash().allowed, true);
      now += 30_001;
    }
  });

  it('reset() after a user-requested restart gives a fresh budget', () => {
    const policy = new RestartPolicy({ now: clock, maxCrashes: 2, windowMs: 1000 });
    policy.recordCrash();
    assert.strictEqual(policy.recordCrash().allowed, false);
    policy.reset();
    assert.deepStrictEqual(policy.recordCrash(), { allowed: true, crashesInWindow: 1, remaining: 1 });
  });

  it('rejects nonsense limits', () => {
    assert.throws(() => new RestartPolicy({ maxCrashes: 0 }), RangeError);
    assert.throws(() => new RestartPolicy({ windowMs: -1 }), RangeError);
  });
});
