// The chat's Steer against a scripted session and the real prompt queue: what the agent took is never sent
// again; what it left to us (promptRequired) or did not take (failed, a rejection) is queued behind a running
// turn and sent once, or sent at once when no turn runs.
import * as assert from 'node:assert/strict';
import type { PromptOutcome, SteerAnswer } from '../../../src/chat/chatBackend';
import { PromptQueue } from '../../../src/chat/promptQueue';
import { steerMessage } from '../../../src/chat/steerMessage';
import type { ComposerPrompt } from '../../../src/shared/messages';
import { settle } from '../fakeTimers';

const prompt = (text: string): ComposerPrompt => ({ text, mentions: [], images: [] });

function setup(running: boolean) {
  const sent: string[] = [];
  const errors: string[] = [];
  const state = { running };
  const ends: Array<() => void> = [];
  const queue = new PromptQueue({
    send: (_id, p) => {
      sent.push(p.text);
      state.running = true;
      return new Promise<PromptOutcome>((resolve) => ends.push(() => ((state.running = false), resolve({ signInRequired: false }))));
    },
    open: async () => 's1',
    agentOf: () => 'A',
    turnRunning: () => state.running,
    cancel: async () => undefined,
    changed: () => undefined,
    reportError: (what) => errors.push(what),
  });
  /** The running turn ends: the queue sends its next message (in promise callbacks; no timer is involved). */
  const endTurn = async () => {
    state.running = false;
    ends.shift()?.();
    queue.drain('s1');
    await settle();
  };
  return { queue, sent, errors, endTurn };
}

const sessionAnswering = (answer: SteerAnswer | Error) => ({
  steered: [] as string[],
  steer(p: ComposerPrompt) {
    this.steered.push(p.text);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  },
});

describe('chat: Steer', () => {
  for (const answer of ['injected', 'startedNewTurn'] as const) {
    it(`${answer}: the agent has the message; nothing is queued or sent again`, async () => {
      const t = setup(true);
      const session = sessionAnswering(answer);
      await steerMessage(session, t.queue, 's1', prompt('steer me'), () => undefined);
      assert.deepEqual(session.steered, ['steer me']);
      await t.endTurn();
      assert.deepEqual(t.queue.queued('s1'), []);
      assert.deepEqual(t.sent, []);
    });
  }

  it('promptRequired after the turn ended: sent as a prompt, exactly once', async () => {
    const t = setup(false);
    await steerMessage(sessionAnswering('promptRequired'), t.queue, 's1', prompt('late'), () => undefined);
    await t.endTurn();
    await t.endTurn();
    assert.deepEqual(t.sent, ['late']);
  });

  for (const answer of ['failed', new Error('connection closed')] as const) {
    it(`${answer instanceof Error ? 'a rejection' : 'failed'}: the message waits in the queue behind the running turn, then goes once`, async () => {
      const t = setup(true);
      const reported: string[] = [];
      await steerMessage(sessionAnswering(answer), t.queue, 's1', prompt('kept'), (w) => reported.push(w));
      assert.deepEqual(t.queue.queued('s1').map((q) => q.text), ['kept']);
      assert.deepEqual(t.sent, []);
      assert.equal(reported.length, answer instanceof Error ? 1 : 0, 'a rejection is reported; a failure the session already said is not');
      await t.endTurn();
      await t.endTurn();
      assert.deepEqual(t.sent, ['kept']);
    });
  }
});
