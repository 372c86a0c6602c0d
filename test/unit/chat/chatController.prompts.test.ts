// ChatController's prompts: sent when idle, queued while a turn runs (edit, send now, remove), and a message
// typed while its new session starts (after switching agents, or waiting for sign-in) goes to that session.
import * as assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { AuthRequiredError } from '../../../src/acp';
import { flatten, setup, tick, useFakeClock } from './chatControllerSetup';

describe('ChatController: prompts and the message queue', () => {
  useFakeClock();
  it('sends when idle, queues while busy, sends the queue when the turn ends', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    const prompt = (text: string) => ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: { text, mentions: [], images: [] } });
    prompt('first');
    await tick();
    prompt('second');
    prompt('third');
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt'), [['sendPrompt', 's1', 'first']]);
    assert.deepEqual(ctl.queued('s1').map((q) => q.text), ['second', 'third']);
    const sessionMsgs = flatten(posted).filter((m): m is Extract<HostToWebviewMessage, { type: 'session' }> => m.type === 'session');
    assert.deepEqual(sessionMsgs[sessionMsgs.length - 1].session.queue.map((q) => q.text), ['second', 'third']);
    // Edit, then end the turn: the edited queued message goes next.
    ctl.handleMessage({ type: 'queueEdit', sessionId: 's1', queueId: ctl.queued('s1')[0].id, text: 'second (edited)' });
    await tick();
    backend.finishTurn();
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => c[2]), ['first', 'second (edited)']);
    assert.deepEqual(ctl.queued('s1').map((q) => q.text), ['third']);
  });

  it('Send now cancels the turn and sends that message next; Remove drops it', async () => {
    const { backend, ctl } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    const prompt = (text: string) => ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: { text, mentions: [], images: [] } });
    prompt('running');
    await tick();
    prompt('a');
    prompt('b');
    prompt('c');
    await tick();
    const [qa, qb, qc] = ctl.queued('s1');
    ctl.handleMessage({ type: 'queueRemove', sessionId: 's1', queueId: qa.id });
    ctl.handleMessage({ type: 'queueSendNow', sessionId: 's1', queueId: qc.id });
    await tick();
    assert.ok(backend.calls.some((c) => c[0] === 'cancel'));
    backend.finishTurn();
    await tick();
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => c[2]), ['running', 'c']);
    assert.deepEqual(ctl.queued('s1').map((q) => q.id), [qb.id]);
  });

  it('a prompt typed while the session the user asked for starts waits for that session, never another', async () => {
    const { backend, ctl } = setup();
    let open!: (id: string) => void;
    backend.lifecycle.open = (agentId?: string) => {
      backend.calls.push(['newSession', agentId]);
      return new Promise<string>((resolve) => (open = resolve));
    };
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.handleMessage({ type: 'newSession', agentId: 'A', requestId: 'r1' });
    ctl.handleMessage({ type: 'prompt', agentId: 'A', newSessionRequestId: 'r1', prompt: { text: 'early', mentions: [], images: [] } });
    await tick();
    assert.deepEqual(backend.calls, [['newSession', 'A']], 'no second session, nothing sent yet');
    open('s1');
    await tick();
    assert.deepEqual(backend.calls, [['newSession', 'A'], ['sendPrompt', 's1', 'early']]);
  });

  it('starts a session for a prompt without one, drops empty prompts and bad images', async () => {
    const { backend, ctl } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.handleMessage({ type: 'prompt', prompt: { text: '   ', mentions: [], images: [] } });
    ctl.handleMessage({ type: 'prompt', agentId: 'A', prompt: { text: 'hi', mentions: [], images: [{ id: 'i', mimeType: 'text/html', data: 'x' }] } });
    await tick();
    assert.deepEqual(backend.calls.slice(0, 2), [['newSession', 'A'], ['sendPrompt', 's1', 'hi']]);
  });
});

describe('ChatController: switching agents, then New session', () => {
  useFakeClock();
  const text = (t: string) => ({ text: t, mentions: [], images: [] });

  /** A backend whose sessions open when the test says, as the real one: the session, its activation, then the answer. */
  function opening() {
    const t = setup();
    const pending: { agentId?: string; resolve(id: string): void; reject(e: unknown): void }[] = [];
    t.backend.lifecycle.open = (agentId?: string) => {
      t.backend.calls.push(['newSession', agentId]);
      return new Promise<string>((resolve, reject) => pending.push({ agentId, resolve, reject }));
    };
    const open = (i: number, sessionId: string) => {
      t.backend.em.emit('session', { ...t.backend.view, sessionId, agentId: pending[i].agentId ?? 'A', turn: 'idle' });
      t.backend.em.emit('active', sessionId);
      pending[i].resolve(sessionId);
    };
    const sent = () => t.backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => `${String(c[1])}:${String(c[2])}`);
    t.ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    return { ...t, pending, open, sent };
  }

  it("B's tab opens, New session asks B again, and the message waits for B's second session (A's gets nothing)", async () => {
    const { ctl, posted, pending, open, sent } = opening();
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r1' });
    open(0, 'b1');
    await tick();
    const order = flatten(posted).map((m) => m.type).filter((t) => t === 'session' || t === 'activeSession' || t === 'newSessionSettled');
    assert.deepEqual(order, ['session', 'activeSession', 'newSessionSettled'], 'settled after the session and its activation');
    assert.deepEqual(flatten(posted).find((m) => m.type === 'newSessionSettled'), { type: 'newSessionSettled', requestId: 'r1', sessionId: 'b1' });

    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r2' });
    ctl.handleMessage({ type: 'prompt', agentId: 'B', newSessionRequestId: 'r2', prompt: text('to B') });
    await tick();
    assert.equal(pending.length, 2, 'B got a second session/new');
    assert.deepEqual(sent(), [], 'nothing sent before its session opened');
    open(1, 'b2');
    await tick();
    assert.deepEqual(sent(), ['b2:to B']);
  });

  it("with A's turn running: the switch leaves A's turn alone and the message goes to B's new session", async () => {
    const { backend, ctl, open, sent } = opening();
    ctl.handleMessage({ type: 'prompt', sessionId: 's1', prompt: text('long') });
    await tick();
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r1' });
    ctl.handleMessage({ type: 'prompt', agentId: 'B', newSessionRequestId: 'r1', prompt: text('to B') });
    open(0, 'b1');
    await tick();
    assert.deepEqual(sent(), ['s1:long', 'b1:to B']);
    assert.deepEqual(ctl.queued('s1'), [], "nothing queued behind A's turn");
    assert.ok(!backend.calls.some((c) => c[0] === 'cancel'));
  });

  it('a session opened for an older request never takes the message meant for a newer one', async () => {
    const { ctl, open, sent } = opening();
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r1' });
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r2' });
    ctl.handleMessage({ type: 'prompt', agentId: 'B', newSessionRequestId: 'r2', prompt: text('second') });
    open(0, 'b1');
    await tick();
    assert.deepEqual(sent(), []);
    open(1, 'b2');
    await tick();
    assert.deepEqual(sent(), ['b2:second']);
  });

  it('waiting for sign-in: the snapshot says which request waits, the message goes to the session opened after it', async () => {
    const { backend, ctl, posted, pending, open, sent, uiLog } = opening();
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r1' });
    pending[0].reject(new AuthRequiredError('session/new', 'Authentication required', undefined, []));
    ctl.handleMessage({ type: 'prompt', agentId: 'B', newSessionRequestId: 'r1', prompt: text('after sign-in') });
    await tick();
    assert.ok(!uiLog.some((l) => l.startsWith('error:')), 'sign-in is shown in the chat, not as an error');
    ctl.handleMessage({ type: 'resync', reason: 'test' });
    const init = [...posted].reverse().find((m) => m.type === 'init');
    assert.deepEqual(init?.type === 'init' && init.snapshot.starting, { requestId: 'r1', agentId: 'B' });
    backend.em.emit('signIn', 'B');
    await tick();
    assert.equal(pending.length, 2, 'signing in opened the session again');
    open(1, 'b1');
    await tick();
    assert.deepEqual(sent(), ['b1:after sign-in']);
    assert.deepEqual(flatten(posted).find((m) => m.type === 'newSessionSettled'), { type: 'newSessionSettled', requestId: 'r1', sessionId: 'b1' });
    ctl.handleMessage({ type: 'resync', reason: 'test' });
    const after = [...posted].reverse().find((m) => m.type === 'init');
    assert.equal(after?.type === 'init' && after.snapshot.starting, undefined);
  });

  it('choosing a tab drops the wait from the snapshot; the request still opens its session', async () => {
    const { backend, ctl, posted, pending } = opening();
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r1' });
    ctl.handleMessage({ type: 'selectSession', sessionId: 's1' });
    ctl.handleMessage({ type: 'resync', reason: 'test' });
    const init = [...posted].reverse().find((m) => m.type === 'init');
    assert.equal(init?.type === 'init' && init.snapshot.starting, undefined);
    assert.deepEqual(backend.calls.slice(-1), [['selectSession', 's1']]);
    assert.equal(pending.length, 1);
  });

  it('a failed start is reported once and settles without a session; its message, or one naming an unknown request, still gets a session', async () => {
    const { ctl, posted, pending, open, sent, uiLog } = opening();
    ctl.handleMessage({ type: 'newSession', agentId: 'B', requestId: 'r1' });
    pending[0].reject(new Error('the agent exited'));
    await tick();
    const said = 'error:Chat action "newSession" failed: the agent exited';
    assert.deepEqual(uiLog.filter((l) => l.includes('the agent exited')), [said, said], 'logged and shown, once each');
    assert.deepEqual(flatten(posted).find((m) => m.type === 'newSessionSettled'), { type: 'newSessionSettled', requestId: 'r1' });
    ctl.handleMessage({ type: 'prompt', agentId: 'B', newSessionRequestId: 'r1', prompt: text('not lost') });
    await tick();
    assert.equal(pending.length, 2, 'a new start for the message');
    open(1, 'b1');
    await tick();
    ctl.handleMessage({ type: 'prompt', agentId: 'B', newSessionRequestId: 'never-asked', prompt: text('unknown request') });
    await tick();
    open(2, 'b2');
    await tick();
    assert.deepEqual(sent(), ['b1:not lost', 'b2:unknown request']);
  });
});
