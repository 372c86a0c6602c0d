// A turn the agent started itself: what ends it (the agent's end marker, Stop, the agent's silence) and what
// does not (its other updates, a tool call still running, anything after its end).
import * as assert from 'assert';
import type { SessionUpdate } from '../../../src/acp';
import { AgentTurnWatch, type AgentTurnEnd } from '../../../src/host/session/turn/agentTurn';
import { FakeClock } from '../fakeTimers';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const usage = (cost?: number): SessionUpdate => ({ sessionUpdate: 'usage_update', used: 10, size: 100, ...(cost === undefined ? {} : { cost: { amount: cost, currency: 'USD' } }) });
const tool = (status: string | undefined, sessionUpdate: 'tool_call' | 'tool_call_update' = 'tool_call_update'): SessionUpdate =>
  ({ sessionUpdate, toolCallId: 't1', title: 'run', ...(status ? { status } : {}) }) as SessionUpdate;
const unsupported = (raw: unknown): SessionUpdate => ({ sessionUpdate: '$unsupported', updateType: 'state_update', raw, reason: 'unknown variant' });

/** Resolves with the end, or 'running' when it has not ended within `ms`. */
const within = (watch: AgentTurnWatch, ms: number) =>
  Promise.race([watch.ended, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms))]);

describe('host: a turn the agent started itself', () => {
  const cancels: string[] = [];
  const connection = { cancel: async (id: string) => void cancels.push(id) };
  const watches: AgentTurnWatch[] = [];
  const watch = (quiet = 60_000, toolQuiet = 60_000, signal = new AbortController().signal) => {
    const w = new AgentTurnWatch(signal, connection, 's1', quiet, toolQuiet);
    watches.push(w);
    return w;
  };
  afterEach(() => {
    for (const w of watches.splice(0)) w.dispose();
    cancels.length = 0;
  });

  it("runs through the agent's messages and mid-turn usage; ends at its result (a usage_update with the cost)", async () => {
    const w = watch();
    w.saw(chunk('working'));
    w.saw(usage());
    assert.strictEqual(await within(w, 50), 'running');
    w.saw(usage(0.01));
    assert.deepStrictEqual(await within(w, 1000), { stopReason: 'end_turn', why: 'its result (usage with the cost)' });
  });

  it("ends at an idle state_update (with the stop reason it names), not at a running one or at garbage", async () => {
    const w = watch();
    w.saw(unsupported({ sessionUpdate: 'state_update', state: 'running' }));
    w.saw(unsupported('not an object'));
    w.saw(unsupported(null));
    assert.strictEqual(await within(w, 50), 'running');
    w.saw(unsupported({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'max_tokens' }));
    assert.strictEqual(((await within(w, 1000)) as AgentTurnEnd).stopReason, 'max_tokens');
    const other = watch();
    other.saw(unsupported({ sessionUpdate: 'state_update', state: 'idle', stopReason: 42 }));
    assert.strictEqual(((await within(other, 1000)) as AgentTurnEnd).stopReason, 'end_turn');
  });

  it('an agent that never sends anything: ended after the quiet time', async () => {
    const end = await within(watch(100), 5000);
    assert.notStrictEqual(end, 'running');
    assert.strictEqual((end as AgentTurnEnd).stopReason, 'end_turn');
    assert.match((end as AgentTurnEnd).why, /nothing from the agent/);
  });

  it('every update restarts the quiet time; subagents count as activity', async () => {
    // Updates 200 ms apart for longer than the quiet time, each well within the quiet time of the one before.
    const clock = new FakeClock();
    try {
      const w = watch(1000);
      let end: AgentTurnEnd | undefined;
      void w.ended.then((e) => (end = e));
      const ended = () => end;
      for (let i = 0; i < 8; i++) {
        await clock.tick(200);
        if (i % 2) w.saw(chunk(`more ${i}`));
        else w.heard();
      }
      await clock.tick(999);
      assert.strictEqual(ended(), undefined, 'still running after 2.6 s: longer than one quiet time');
      await clock.tick(1);
      assert.strictEqual(ended()?.stopReason, 'end_turn', 'ended one quiet time after the last update');
    } finally {
      clock.restore();
    }
  });

  it('a tool call still running waits the longer quiet time; once it finished, the short one again', async () => {
    const w = watch(100, 60_000);
    w.saw(tool(undefined, 'tool_call'));
    assert.strictEqual(await within(w, 400), 'running', 'a tool call without a status is pending');
    w.saw(tool('in_progress'));
    w.saw(tool(undefined));
    assert.strictEqual(await within(w, 400), 'running');
    w.saw(tool('completed'));
    assert.notStrictEqual(await within(w, 5000), 'running');
  });

  it('Stop: ended cancelled at once, and the agent asked to stop (session/cancel), once', async () => {
    const abort = new AbortController();
    const w = watch(60_000, 60_000, abort.signal);
    abort.abort();
    assert.deepStrictEqual(await within(w, 1000), { stopReason: 'cancelled', why: 'stopped' });
    assert.deepStrictEqual(cancels, ['s1']);
    w.saw(chunk('still talking after the cancel'));
    w.saw(usage(0.02));
    assert.deepStrictEqual(cancels, ['s1']);
  });

  it('stopped before it began (already aborted); a cancel the agent cannot take (gone) is no failure', async () => {
    const abort = new AbortController();
    abort.abort();
    const gone = new AgentTurnWatch(abort.signal, { cancel: () => Promise.reject(new Error('connection closed')) }, 's2', 60_000, 60_000);
    watches.push(gone);
    assert.deepStrictEqual(await within(gone, 1000), { stopReason: 'cancelled', why: 'stopped' });
  });

  it('ends once: a second marker, a Stop after the end, or dispose change nothing', async () => {
    const abort = new AbortController();
    const w = watch(60_000, 60_000, abort.signal);
    w.saw(usage(0.01));
    w.saw(usage(0.02));
    abort.abort();
    assert.strictEqual(((await within(w, 1000)) as AgentTurnEnd).stopReason, 'end_turn');
    assert.deepStrictEqual(cancels, [], 'no cancel for a turn that had ended');
  });
});
