import * as assert from 'assert';
import { PendingPermissions } from '../../../../src/acp/connection/pendingPermissions';
import type { IncomingRequestContext } from '../../../../src/acp/connection/handlers';

const contextOf = (signal = new AbortController().signal): IncomingRequestContext => ({ method: 'session/request_permission', requestId: 1, signal });
const CANCELLED = { outcome: { outcome: 'cancelled' } };

describe('acp: pending permission requests', () => {
  it("answers with the host's answer when the session is not cancelled", async () => {
    const pending = new PendingPermissions();
    const answer = await pending.run('s1', contextOf(), () => ({ outcome: { outcome: 'selected', optionId: 'allow' } }));
    assert.deepStrictEqual(answer, { outcome: { outcome: 'selected', optionId: 'allow' } });
  });

  it("answers every waiting request of the cancelled session `cancelled` at once and aborts the handler's signal; other sessions keep waiting", async () => {
    const pending = new PendingPermissions();
    const signals: AbortSignal[] = [];
    let answerOther: (value: unknown) => void = () => undefined;
    const never = (context: IncomingRequestContext) => (signals.push(context.signal), new Promise(() => undefined));
    const first = pending.run('s1', contextOf(), never);
    const second = pending.run('s1', contextOf(), never);
    const other = pending.run('s2', contextOf(), () => new Promise((resolve) => (answerOther = resolve)));
    await Promise.resolve();
    pending.cancel('s1');
    assert.deepStrictEqual(await first, CANCELLED);
    assert.deepStrictEqual(await second, CANCELLED);
    assert.ok(signals.every((s) => s.aborted));
    answerOther({ outcome: { outcome: 'selected', optionId: 'x' } });
    assert.deepStrictEqual(await other, { outcome: { outcome: 'selected', optionId: 'x' } });
  });

  it('a handler that throws after the cancel still yields `cancelled`; one that throws otherwise rejects', async () => {
    const pending = new PendingPermissions();
    const cancelled = pending.run('s1', contextOf(), (context) => new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')))));
    await Promise.resolve();
    pending.cancel('s1');
    assert.deepStrictEqual(await cancelled, CANCELLED);
    await assert.rejects(pending.run('s1', contextOf(), () => { throw new Error('broken handler'); }), /broken handler/);
  });

  it('passes on the abort of the request itself (the agent cancelled it or the connection closed)', async () => {
    const pending = new PendingPermissions();
    const request = new AbortController();
    let seen: AbortSignal | undefined;
    void pending.run('s1', contextOf(request.signal), (context) => ((seen = context.signal), new Promise(() => undefined)));
    await Promise.resolve();
    request.abort();
    assert.ok(seen?.aborted);
  });

  it('cancelling a session with nothing pending, or twice, does nothing', async () => {
    const pending = new PendingPermissions();
    pending.cancel('nobody');
    const done = pending.run('s1', contextOf(), () => 'answered');
    assert.strictEqual(await done, 'answered');
    pending.cancel('s1');
    pending.cancel('s1');
  });
});
