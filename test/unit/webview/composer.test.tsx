// The composer: its named controls, Enter/Shift+Enter/Up, Send and Stop, the queue of messages sent while
// busy, slash-command and @-mention completion, and the first prompt without a session.
import './setupDom';
import * as assert from 'node:assert/strict';
import { change, click, getByRole, keydown, mount, queryAllByRole, snapshot, typeInto } from './helpers';

describe('webview: composer', () => {
  it('has the named controls', () => {
    const h = mount(snapshot([]));
    getByRole(h.root, 'textbox', 'Message');
    getByRole(h.root, 'button', 'Send');
    getByRole(h.root, 'button', 'Stop');
    getByRole(h.root, 'button', 'New session');
    getByRole(h.root, 'combobox', 'Agent');
    h.unmount();
  });

  it('Enter sends, Shift+Enter does not, Up recalls the last message', () => {
    const h = mount(snapshot([]));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'line one');
    keydown(box, 'Enter', { shiftKey: true });
    assert.equal(h.last('prompt'), undefined);
    typeInto(box, 'line one\nline two');
    keydown(box, 'Enter');
    assert.deepEqual(h.last('prompt'), { type: 'prompt', sessionId: 's1', prompt: { text: 'line one\nline two', mentions: [], images: [] } });
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, '');
    keydown(box, 'ArrowUp');
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, 'line one\nline two');
    h.unmount();
  });

  it('Send button sends; Stop is enabled only while the agent works and cancels', () => {
    const h = mount(snapshot([]));
    const stop = getByRole(h.root, 'button', 'Stop') as HTMLButtonElement;
    assert.equal(stop.disabled, true);
    typeInto(getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement, 'hello');
    click(getByRole(h.root, 'button', 'Send'));
    assert.equal(h.last('prompt')?.prompt.text, 'hello');
    h.send({ type: 'session', session: { ...h.store.active!.view, turn: 'running' } });
    const stop2 = getByRole(h.root, 'button', 'Stop') as HTMLButtonElement;
    assert.equal(stop2.disabled, false);
    click(stop2);
    assert.deepEqual(h.last('cancel'), { type: 'cancel', sessionId: 's1' });
    h.unmount();
  });

  it('shows queued messages while busy: editable, removable, Send now', () => {
    const h = mount(snapshot([], { turn: 'running', queue: [{ id: 'q1', text: 'next thing', mentions: [], images: [] }] }));
    const q = getByRole(h.root, 'textbox', 'Queued message 1') as HTMLTextAreaElement;
    assert.equal(q.value, 'next thing');
    change(q, 'edited thing');
    assert.deepEqual(h.last('queueEdit'), { type: 'queueEdit', sessionId: 's1', queueId: 'q1', text: 'edited thing' });
    click(getByRole(h.root, 'button', 'Send now'));
    assert.deepEqual(h.last('queueSendNow'), { type: 'queueSendNow', sessionId: 's1', queueId: 'q1' });
    click(getByRole(h.root, 'button', 'Remove queued message 1'));
    assert.deepEqual(h.last('queueRemove'), { type: 'queueRemove', sessionId: 's1', queueId: 'q1' });
    // Typing while busy still posts the prompt; the host queues it.
    typeInto(getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement, 'another');
    keydown(getByRole(h.root, 'textbox', 'Message'), 'Enter');
    assert.equal(h.last('prompt')?.prompt.text, 'another');
    h.unmount();
  });

  it('completes slash commands with their input hint', () => {
    const h = mount(snapshot([], {}, { commands: [{ name: 'review', description: 'Review changes', inputHint: 'what to review' }, { name: 'init', description: 'Create AGENTS.md' }] }));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, '/rev');
    const list = getByRole(h.root, 'listbox', 'Commands');
    assert.equal(queryAllByRole(list, 'option').length, 1);
    keydown(box, 'Enter');
    assert.equal((getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement).value, '/review ');
    assert.equal(h.last('prompt'), undefined, 'accepting a suggestion does not send');
    assert.match(h.root.querySelector('.input-hint')!.textContent!, /what to review/);
    h.unmount();
  });

  it('@-mentions ask the host, filter fuzzily and are sent as mention objects', () => {
    const h = mount(snapshot([]));
    const box = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    typeInto(box, 'look at @apts');
    const q = h.last('mentionQuery')!;
    assert.equal(q.query, 'apts');
    h.send({ type: 'mentionResults', requestId: q.requestId, candidates: [
      { kind: 'file', uri: 'file:///ws/src/app.ts', label: 'app.ts', detail: 'src/app.ts' },
      { kind: 'file', uri: 'file:///ws/zzz.md', label: 'zzz.md', detail: 'zzz.md' },
    ] });
    const options = queryAllByRole(getByRole(h.root, 'listbox', 'Mentions'), 'option');
    assert.equal(options.length, 1);
    keydown(box, 'Enter');
    const box2 = getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;
    assert.equal(box2.value, 'look at @app.ts ');
    keydown(box2, 'Enter');
    assert.deepEqual(h.last('prompt')?.prompt, { text: 'look at @app.ts ', mentions: [{ kind: 'file', uri: 'file:///ws/src/app.ts', label: 'app.ts' }], images: [] });
    h.unmount();
  });

  it('without a session, the first prompt carries the chosen agent', () => {
    const snap = snapshot([]);
    snap.sessions = [];
    snap.activeSessionId = undefined;
    const h = mount(snap);
    const agent = getByRole(h.root, 'combobox', 'Agent') as HTMLSelectElement;
    change(agent, 'Other Agent');
    h.flush();
    typeInto(getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement, 'hi');
    keydown(getByRole(h.root, 'textbox', 'Message'), 'Enter');
    assert.deepEqual(h.last('prompt'), { type: 'prompt', agentId: 'Other Agent', prompt: { text: 'hi', mentions: [], images: [] } });
    click(getByRole(h.root, 'button', 'New session'));
    assert.equal(h.last('newSession')?.agentId, 'Other Agent');
    h.unmount();
  });
});
