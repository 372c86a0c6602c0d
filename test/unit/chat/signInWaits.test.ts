// A message that stopped for its agent's sign-in is a value the chat's prompt queue keeps: signing in to
// that agent sends it once (not recorded twice when the transcript shows it), a newer message in the session
// replaces it, closing the tab or signing in to another agent leaves it alone, and a message whose session
// could not open yet opens one after sign-in.
import * as assert from 'node:assert/strict';
import { AuthRequiredError } from '../../../src/acp/errors';
import { ChatController } from '../../../src/chat/chatController';
import { fakeActions, FakeBackend, fakeUi } from './fakeChatBackend';
import { FLUSH_DELAY_MS, tick, useFakeClock } from './tick';

const text = (t: string) => ({ text: t, mentions: [], images: [] });
const signInRequired = { signInRequired: true, shown: true } as const;

function setup() {
  const backend = new FakeBackend();
  const ctl = new ChatController(backend, fakeUi(), fakeActions(), { flushDelayMs: FLUSH_DELAY_MS });
  ctl.attach({ postMessage: async () => true });
  ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
  const sent = () => backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => c.slice(1).join(':'));
  /** The running turn ends (as the agent's answer would end it). */
  const endTurn = async () => {
    backend.finishTurn();
    await tick();
  };
  return { backend, ctl, sent, endTurn };
}

describe('chat: messages waiting for sign-in', () => {
  useFakeClock();
  it('a turn that stopped for sign-in is sent again once the user signed in to that agent, marked as shown', async () => {
    const { backend, ctl, sent, endTurn } = setup();
    backend.outcomes.push(signInRequired);
    ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: text('hello') });
    await tick();
    await endTurn();
    assert.deepEqual(sent(), ['s1:hello']);
    backend.em.emit('signIn', 'Other');
    await tick();
    assert.deepEqual(sent(), ['s1:hello'], 'another agent signing in sends nothing');
    backend.em.emit('signIn', 'A');
    await tick();
    assert.deepEqual(sent(), ['s1:hello', 's1:hello:shownAlready']);
    await endTurn();
    backend.em.emit('signIn', 'A');
    await tick();
    assert.equal(sent().length, 2, 'sent once: the wait is over');
  });

  it('a sign-in while the refused turn was still ending sends the message again at once', async () => {
    const { backend, ctl, sent, endTurn } = setup();
    backend.outcomes.push(signInRequired);
    ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: text('hello') });
    await tick();
    backend.em.emit('signIn', 'A');
    await endTurn();
    await tick();
    assert.deepEqual(sent(), ['s1:hello', 's1:hello:shownAlready']);
  });

  it('a newer message in the session replaces the one waiting: only the latest is sent', async () => {
    const { backend, ctl, sent, endTurn } = setup();
    backend.outcomes.push(signInRequired, signInRequired);
    ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: text('first') });
    await tick();
    await endTurn();
    ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: text('second') });
    await tick();
    await endTurn();
    backend.em.emit('signIn', 'A');
    await tick();
    assert.deepEqual(sent(), ['s1:first', 's1:second', 's1:second:shownAlready']);
  });

  it('closing the tab drops its waiting message', async () => {
    const { backend, ctl, sent, endTurn } = setup();
    backend.outcomes.push(signInRequired);
    ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: text('bye') });
    await tick();
    await endTurn();
    backend.em.emit('close', 's1');
    backend.em.emit('signIn', 'A');
    await tick();
    assert.deepEqual(sent(), ['s1:bye']);
  });

  it('a message whose new session needs sign-in first opens that session after it, then goes there once', async () => {
    const { backend, ctl, sent } = setup();
    let refuse = true;
    backend.lifecycle.open = async (agentId) => {
      backend.calls.push(['newSession', agentId]);
      if (refuse) throw new AuthRequiredError('session/new', 'Authentication required', undefined, []);
      return 's1';
    };
    ctl.handleMessage({ type: 'prompt', agentId: 'A', prompt: text('first words') });
    await tick();
    assert.deepEqual(sent(), [], 'nothing sent while the agent waits for sign-in');
    refuse = false;
    backend.em.emit('signIn', 'A');
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'newSession').length, 2);
    assert.deepEqual(sent(), ['s1:first words'], 'recorded as a new message: it never showed');
  });

  it('a New session that needs sign-in opens once the user signed in, also when the host asked for it', async () => {
    const { backend, ctl } = setup();
    let refuse = true;
    backend.lifecycle.open = async (agentId) => {
      backend.calls.push(['newSession', agentId]);
      if (refuse) throw new AuthRequiredError('session/new', 'Authentication required', undefined, []);
      return 's1';
    };
    const opened = ctl.newSession('A');
    await assert.rejects(opened, AuthRequiredError);
    refuse = false;
    backend.em.emit('signIn', 'A');
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'newSession'), [['newSession', 'A'], ['newSession', 'A']]);
  });
});
