// ChatController and its webviews: the ready handshake (nothing sent before it, then init and what was queued),
// resyncs, a hidden or unreachable webview, malformed messages, and several webviews at once.
import * as assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { ChatController } from '../../../src/chat/chatController';
import { fakeActions, FakeBackend, fakeUi } from './fakeChatBackend';
import { flatten, FLUSH_DELAY_MS, setup, tick, useFakeClock } from './chatControllerSetup';

describe('ChatController: handshake and queueing while not ready', () => {
  useFakeClock();
  it('sends nothing before ready, then init with the full snapshot, then the queued messages', async () => {
    const { backend, ctl, posted } = setup();
    ctl.focusComposer('hello');
    backend.update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } });
    backend.em.emit('agents');
    await tick();
    assert.equal(posted.length, 0);
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    assert.equal(posted[0].type, 'init');
    const init = posted[0] as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init.snapshot.sessions[0].transcript.items.length, 1);
    assert.deepEqual(init.snapshot.sessions[0].view.queue, []);
    assert.deepEqual(posted[1], { type: 'focusComposer', insert: 'hello' });
    await tick();
    assert.equal(posted.length, 2, 'no stale deltas after init');
  });

  it('a message the backend refused (its mentions) goes back into the composer, text and mentions', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    const mentions = [{ kind: 'problems' as const, uri: 'file:///ws/a.ts', label: 'problems:a.ts' }];
    backend.em.emit('refused', { tabId: 's1', prompt: { text: 'fix @problems:a.ts', mentions, images: [] } });
    ctl.flush();
    assert.deepEqual(flatten(posted).find((m) => m.type === 'focusComposer'), { type: 'focusComposer', insert: 'fix @problems:a.ts', mentions });
  });

  it('answers a repeated ready (the webview asked again) with init and logs that an earlier one was lost', () => {
    const { ctl, posted, uiLog } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    assert.equal(uiLog.length, 0, uiLog.join('\n'));
    ctl.handleMessage({ type: 'ready', protocolVersion: 2, attempt: 2 });
    assert.deepEqual(posted.map((m) => m.type), ['init', 'init']);
    assert.equal(uiLog.length, 1);
    assert.match(uiLog[0], /asked for its state again \(ask 2\)/);
    ctl.handleMessage({ type: 'ready', protocolVersion: 2, attempt: 'x' });
    assert.equal(posted.length, 2, 'a malformed ready is ignored');
  });

  it('stops sending when hidden and resyncs on the next ready', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.setVisible(false);
    backend.say('while hidden');
    await tick();
    assert.equal(posted.length, 1);
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    const init = posted[1] as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init.type, 'init');
    assert.equal(init.snapshot.sessions[0].transcript.items.length, 1);
  });

  it('treats a failed postMessage as not ready', async () => {
    const backend = new FakeBackend();
    const ctl = new ChatController(backend, fakeUi(), fakeActions(), { flushDelayMs: FLUSH_DELAY_MS });
    let live = true;
    const posted: HostToWebviewMessage[] = [];
    ctl.attach({ postMessage: async (m) => { if (live) posted.push(m); return live; } });
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    await tick();
    live = false;
    backend.say('x');
    await tick();
    await tick();
    assert.equal(ctl.isReady, false);
  });

  it('a webview the host stopped sending to gets its whole state again when it speaks, before its message is handled', async () => {
    const backend = new FakeBackend();
    const uiLog: string[] = [];
    const ctl = new ChatController(backend, fakeUi(uiLog), fakeActions(), { flushDelayMs: FLUSH_DELAY_MS });
    const answers = [true, false];
    const posted: HostToWebviewMessage[] = [];
    ctl.attach({ postMessage: async (m) => (posted.push(JSON.parse(JSON.stringify(m))), answers.shift() ?? true) });
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    backend.say('lost on the way');
    await tick();
    await tick();
    assert.equal(ctl.isReady, false, 'a failed delivery stops the sending');
    backend.say('not sent while stopped');
    await tick();
    const sentBefore = posted.length;
    ctl.handleMessage({ type: 'selectSession', sessionId: 's1' });
    const init = posted[sentBefore] as Extract<HostToWebviewMessage, { type: 'init' }>;
    assert.equal(init?.type, 'init', 'the whole state goes again at once');
    assert.ok(JSON.stringify(init.snapshot.sessions).includes('lost on the waynot sent while stopped'), 'with what it missed');
    assert.deepEqual(backend.calls.at(-1), ['selectSession', 's1'], 'then the message is handled');
    assert.ok(uiLog.some((l) => /while the host had stopped sending to it/.test(l)), uiLog.join('\n'));
    backend.say('flows again');
    await tick();
    assert.ok(JSON.stringify(posted.slice(sentBefore + 1)).includes('flows again'), 'changes flow again');
  });

  it('ignores malformed messages', () => {
    const { ctl, uiLog } = setup();
    ctl.handleMessage({ type: 'rm -rf' });
    ctl.handleMessage(null);
    assert.equal(uiLog.filter((l) => l.startsWith('warn:')).length, 2);
  });
});

describe('ChatController: several webviews (the side bar and an editor tab)', () => {
  useFakeClock();
  it('each webview gets its own init and seqs; a message queued in one shows in the other; a closed one gets nothing', async () => {
    const { backend, ctl, posted } = setup();
    const tabPosted: HostToWebviewMessage[] = [];
    const tab = ctl.connect();
    tab.attach({ postMessage: (m) => { tabPosted.push(JSON.parse(JSON.stringify(m))); return true; } });
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 }, tab);
    assert.equal(posted.filter((m) => m.type === 'init').length, 1);
    assert.equal(tabPosted.filter((m) => m.type === 'init').length, 1);

    backend.say('to both');
    await tick();
    const opsOf = (ms: HostToWebviewMessage[]) => flatten(ms).filter((m): m is Extract<HostToWebviewMessage, { type: 'transcriptOps' }> => m.type === 'transcriptOps');
    assert.deepEqual(opsOf(posted).map((m) => m.seq), [1]);
    assert.deepEqual(opsOf(tabPosted).map((m) => m.seq), [1]);

    // The tab resyncs: only it gets a snapshot; the side bar's seqs go on.
    ctl.handleMessage({ type: 'resync', reason: 'test' }, tab);
    backend.say(' again');
    await tick();
    assert.equal(posted.filter((m) => m.type === 'init').length, 1, 'the side bar is not reset');
    assert.deepEqual(opsOf(posted).map((m) => m.seq), [1, 2]);
    assert.deepEqual(opsOf(tabPosted).map((m) => m.seq), [1, 1]);

    // A turn runs; a message typed in the tab is queued, and the side bar's session view shows it.
    const send = (text: string) => ({ type: 'prompt', sessionId: 's1', prompt: { text, mentions: [], images: [] } });
    ctl.handleMessage(send('first'), tab);
    await tick();
    ctl.handleMessage(send('second'), tab);
    await tick();
    const lastQueue = (ms: HostToWebviewMessage[]) => flatten(ms).filter((m) => m.type === 'session').map((m) => (m as Extract<HostToWebviewMessage, { type: 'session' }>).session.queue.map((q) => q.text)).pop();
    assert.deepEqual(lastQueue(posted), ['second']);
    assert.deepEqual(lastQueue(tabPosted), ['second']);
    assert.deepEqual(backend.calls.filter((c) => c[0] === 'sendPrompt').map((c) => c[2]), ['first'], 'one prompt at a time, whichever webview sent it');

    ctl.disconnect(tab);
    const before = tabPosted.length;
    backend.say(' after the tab closed');
    await tick();
    assert.equal(tabPosted.length, before);
    ctl.handleMessage(send('from a closed tab'), tab);
    await tick();
    assert.equal(backend.calls.filter((c) => c[0] === 'sendPrompt').length, 1, 'a closed tab sends nothing');
  });
});
