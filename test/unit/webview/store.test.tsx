// The store's two halves on their own: the reducer of the host's messages (seq order per session, bad ops
// refused so the store resyncs, terminal output bounded) and the persisted UI state (read back defensively,
// stored debounced, images never stored, bounded).
import * as assert from 'node:assert/strict';
import { MAX_TOOL_OUTPUT } from '../../../src/shared/transcript';
import { emptyChatState, HostStateReducer } from '../../../webview-ui/src/storeHostState';
import { UiStore } from '../../../webview-ui/src/storeUi';
import { FakeClock } from '../fakeTimers';
import { snapshot } from './helpers';

function fakeApi(initial?: unknown) {
  const stored: unknown[] = [];
  let state = initial;
  return { stored, api: { postMessage: () => undefined, getState: () => state, setState: (s: unknown) => (stored.push(s), (state = s)) } };
}

describe('webview: the host state reducer', () => {
  it('takes a snapshot, then applies ops in seq order per session and refuses a missed seq or an unknown session', () => {
    const reducer = new HostStateReducer();
    let s = reducer.apply(emptyChatState(), { type: 'init', snapshot: snapshot() });
    assert.equal(s.initialized, true);
    assert.deepEqual(s.order, ['s1']);
    s = reducer.apply(s, { type: 'transcriptOps', sessionId: 's1', seq: 1, ops: [{ op: 'append', item: { kind: 'user_message', id: 'm1', content: [{ type: 'text', text: 'hi' }] } }] });
    assert.equal(s.sessions.get('s1')?.transcript.items.length, 1);
    assert.throws(() => reducer.apply(s, { type: 'transcriptOps', sessionId: 's1', seq: 3, ops: [] }), /expected 2/);
    assert.throws(() => reducer.apply(s, { type: 'transcriptOps', sessionId: 'nobody', seq: 1, ops: [] }), /unknown session/);
  });

  it('a removed tab leaves the order and the active tab moves to the last one; a reset restarts its seqs', () => {
    const reducer = new HostStateReducer();
    let s = reducer.apply(emptyChatState(), { type: 'init', snapshot: snapshot() });
    const view = { ...s.sessions.get('s1')!.view, sessionId: 's2' };
    s = reducer.apply(s, { type: 'session', session: view });
    s = reducer.apply(s, { type: 'activeSession', sessionId: 's1' });
    s = reducer.apply(s, { type: 'sessionRemoved', sessionId: 's1' });
    assert.deepEqual(s.order, ['s2']);
    assert.equal(s.activeSessionId, 's2');
    s = reducer.apply(s, { type: 'transcriptReset', sessionId: 's2', transcript: { sessionId: 's2', items: [], commands: [], configOptions: [] } });
    const after = reducer.apply(s, { type: 'transcriptOps', sessionId: 's2', seq: 1, ops: [] });
    assert.equal(after.sessions.get('s2')?.transcript.items.length, 0);
  });

  it("keeps the last MAX_TOOL_OUTPUT characters of a terminal's output and says it was cut", () => {
    const reducer = new HostStateReducer();
    let s = emptyChatState();
    s = reducer.apply(s, { type: 'terminalOutput', terminalId: 't', data: 'a'.repeat(MAX_TOOL_OUTPUT) });
    assert.equal(s.terminals.get('t')?.truncated, false);
    s = reducer.apply(s, { type: 'terminalOutput', terminalId: 't', data: 'END', exitStatus: { exitCode: 0 } });
    const t = s.terminals.get('t')!;
    assert.equal(t.output.length, MAX_TOOL_OUTPUT);
    assert.ok(t.output.endsWith('END'));
    assert.equal(t.truncated, true);
    s = reducer.apply(s, { type: 'terminalOutput', terminalId: 't', data: 'new', reset: true });
    assert.equal(s.terminals.get('t')?.output, 'new');
    assert.deepEqual(s.terminals.get('t')?.exitStatus, { exitCode: 0 });
  });
});

describe('webview: the persisted UI state', () => {
  it('reads junk back as a fresh state', () => {
    for (const junk of [undefined, null, 'text', 42, { drafts: 'x', expanded: 3, sent: 'no', agentId: 5, historyOpen: 'yes' }]) {
      const ui = new UiStore(fakeApi(junk).api);
      assert.deepEqual(ui.draft('s1'), { text: '', mentions: [], images: [] });
      assert.deepEqual(ui.sent, []);
      assert.equal(ui.agentId, undefined);
      assert.equal(ui.historyOpen, false);
      assert.equal(ui.isExpanded('x', true), true);
    }
  });

  it('stores changes once per burst, without images; an emptied draft is forgotten at once', async () => {
    // Simulated time: the store's save timer (200 ms) fires when the test moves the clock, however loaded the machine.
    const clock = new FakeClock();
    try {
      const { api, stored } = fakeApi();
      const ui = new UiStore(api);
      ui.setDraft('s1', { text: 'a', mentions: [], images: [{ id: 'i1', mimeType: 'image/png', data: 'AAAA' }] });
      ui.setDraft('s1', { text: 'ab', mentions: [], images: [{ id: 'i1', mimeType: 'image/png', data: 'AAAA' }] });
      ui.rememberSent('hello');
      assert.equal(stored.length, 0);
      await clock.tick(200);
      assert.equal(stored.length, 1);
      await clock.tick(1000);
      assert.equal(stored.length, 1, 'the burst is stored once');
      const again = new UiStore(api);
      assert.deepEqual(again.draft('s1'), { text: 'ab', mentions: [], images: [] });
      assert.deepEqual(again.sent, ['hello']);
      // A draft emptied by a send is stored at once: the view may be torn down before a timer fires.
      again.setDraft('s1', { text: '', mentions: [], images: [] });
      assert.equal(stored.length, 2, 'stored without waiting');
      assert.deepEqual(new UiStore(api).draft('s1'), { text: '', mentions: [], images: [] });
      again.setDraft('s1', { text: '', mentions: [], images: [] });
      assert.equal(stored.length, 2, 'a draft already empty stores nothing');
    } finally {
      clock.restore();
    }
  });

  it('moves a draft to a session that has none, never over one it has', () => {
    const ui = new UiStore(fakeApi().api);
    ui.setDraft('__new__', { text: 'typed while starting', mentions: [], images: [] });
    ui.moveDraft('__new__', 's2');
    assert.equal(ui.draft('s2').text, 'typed while starting');
    assert.equal(ui.draft('__new__').text, '');
    ui.setDraft('__new__', { text: 'other', mentions: [], images: [] });
    ui.moveDraft('__new__', 's2');
    assert.equal(ui.draft('s2').text, 'typed while starting');
    assert.equal(ui.draft('__new__').text, 'other');
    ui.persistNow();
  });

  it('keeps the recall list short and without repeats, and the expand choices bounded', () => {
    const ui = new UiStore(fakeApi().api);
    for (let i = 0; i < 40; i++) ui.rememberSent(`m${i}`);
    ui.rememberSent('m35');
    ui.rememberSent('   ');
    assert.equal(ui.sent.length, 30);
    assert.equal(ui.sent[ui.sent.length - 1], 'm35');
    assert.equal(new Set(ui.sent).size, 30);
    for (let i = 0; i < 600; i++) ui.setExpanded(`i${i}`, true);
    assert.equal(ui.isExpanded('i0', false), false);
    assert.equal(ui.isExpanded('i599', false), true);
    ui.persistNow();
  });
});
