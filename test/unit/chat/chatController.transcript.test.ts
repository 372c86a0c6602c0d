// ChatController's transcript traffic: a snapshot at init, then the reducer's ops in sequence, terminal output,
// and batching that throttles posts by the flush delay.
import * as assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/shared/messages';
import { applyTranscriptOps } from '../../../src/shared/transcriptOps';
import { ChatController } from '../../../src/chat/chatController';
import { settle } from '../fakeTimers';
import { fakeActions, FakeBackend, fakeUi } from './fakeChatBackend';
import { flatten, setup, tick, useFakeClock } from './chatControllerSetup';

describe("ChatController: transcripts as snapshots and the reducer's ops", () => {
  useFakeClock();
  it('coalesces many chunks into one sequenced ops message carrying only the new text', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    const mirror = (posted[0] as Extract<HostToWebviewMessage, { type: 'init' }>).snapshot.sessions[0].transcript;
    for (let i = 0; i < 500; i++) backend.say(`chunk${i} `);
    await tick();
    assert.equal(posted.length, 2, 'one postMessage for the whole burst');
    const msgs = flatten(posted.slice(1));
    assert.deepEqual(msgs.map((m) => m.type === 'transcriptOps' && m.seq), [1]);
    const ops = msgs.flatMap((m) => (m.type === 'transcriptOps' ? m.ops : []));
    assert.deepEqual(ops.map((o) => o.op), ['append', 'appendText'], 'consecutive appends to one block travel as one op');
    assert.deepEqual(applyTranscriptOps(mirror, ops).items, backend.transcript.items);
    backend.say('TAIL');
    await tick();
    assert.deepEqual(flatten([posted[posted.length - 1]]), [
      { type: 'transcriptOps', sessionId: 's1', seq: 2, ops: [{ op: 'appendText', index: 0, id: 'i1', contentIndex: 0, text: 'TAIL' }] },
    ]);
  });

  it('carries tool calls, plans, removals and meta changes so the webview copy equals the host transcript', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    let mirror = (posted[0] as Extract<HostToWebviewMessage, { type: 'init' }>).snapshot.sessions[0].transcript;
    const apply = () => {
      for (const m of flatten(posted.splice(1))) if (m.type === 'transcriptOps') mirror = applyTranscriptOps(mirror, m.ops);
    };
    backend.update({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Read', kind: 'read', status: 'pending' });
    backend.update({ sessionUpdate: 'plan_update', plan: { planId: 'p', type: 'items', entries: [] } });
    backend.say('a');
    await tick();
    apply();
    backend.update({ sessionUpdate: 'tool_call_update', toolCallId: 'tc', status: 'completed' });
    backend.update({ sessionUpdate: 'session_info_update', title: 'Titled' });
    backend.update({ sessionUpdate: 'plan_removed', planId: 'p' });
    backend.say('b');
    await tick();
    apply();
    assert.deepEqual(mirror.items, backend.transcript.items);
    assert.equal(mirror.title, 'Titled');
    backend.update({ sessionUpdate: 'session_info_update', title: null });
    await tick();
    apply();
    assert.equal('title' in mirror, false, 'a cleared field is gone from the copy too');
  });

  it('sends a session it has not seen yet as a snapshot, and ops after it from seq 1', async () => {
    const { backend, ctl, posted } = setup();
    backend.say('before the view');
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    backend.say(' and after');
    await tick();
    const ops = flatten(posted).filter((m) => m.type === 'transcriptOps');
    assert.deepEqual(ops.map((m) => m.type === 'transcriptOps' && m.seq), [1], 'each init starts the sequence again');
  });

  it('gives terminal output (escapes already stripped by the terminal bridge) \\n line ends and batches it', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    backend.em.emit('terminal', { terminalId: 't', data: 'ok line\r' });
    backend.em.emit('terminal', { terminalId: 't', data: '\n50%\r100%', exitStatus: { exitCode: 0 } });
    await tick();
    const msgs = flatten(posted.slice(1));
    assert.deepEqual(msgs, [{ type: 'terminalOutput', terminalId: 't', data: 'ok line\n50%100%', exitStatus: { exitCode: 0 } }]);
  });

  it('passes on whether a terminal is still open (the card\'s "Open terminal")', async () => {
    const { backend, ctl, posted } = setup();
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    backend.em.emit('terminal', { terminalId: 't', data: '', open: true });
    backend.em.emit('terminal', { terminalId: 't', data: 'out' });
    await tick();
    backend.em.emit('terminal', { terminalId: 't', data: '', open: false });
    await tick();
    assert.deepEqual(flatten(posted.slice(1)), [
      { type: 'terminalOutput', terminalId: 't', data: 'out', open: true },
      { type: 'terminalOutput', terminalId: 't', data: '', open: false },
    ]);
  });
});

describe('ChatController: batching is a throttle', () => {
  const clock = useFakeClock();

  it('posts the first update at once, coalesces a burst, and spaces later batches by the flush delay', async () => {
    const backend = new FakeBackend();
    const ctl = new ChatController(backend, fakeUi(), fakeActions(), { flushDelayMs: 1000 });
    const posted: { at: number; m: HostToWebviewMessage }[] = [];
    ctl.attach({ postMessage: (m) => { posted.push({ at: clock().now, m }); return true; } });
    ctl.handleMessage({ type: 'ready', protocolVersion: 2 });
    posted.length = 0;
    backend.say('one');
    backend.say(' two');
    await settle();
    await clock().tick(0);
    assert.deepEqual(posted.map((p) => p.at), [0], 'the first update after a quiet period goes out without waiting a frame, as one post');
    backend.say(' three');
    await clock().tick(999);
    assert.equal(posted.length, 1, 'the next one waits for the flush delay');
    await clock().tick(1);
    assert.deepEqual(posted.map((p) => p.at), [0, 1000], 'and goes out when it is over');
    ctl.dispose();
  });
});
