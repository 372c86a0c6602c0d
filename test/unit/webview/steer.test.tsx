// The composer's Steer in jsdom: offered only while a turn of an agent that steers runs; Enter queues (posts
// `prompt`) or steers (posts `steer`) as the setting says, and the composer says which; Send always queues.
// A steered message is marked in the transcript.
import './setupDom';
import * as assert from 'node:assert/strict';
import { accessibleName, click, getByRole, keydown, mount, queryAllByRole, snapshot, typeInto } from './helpers';

const box = (root: ParentNode) => getByRole(root, 'textbox', 'Message') as HTMLTextAreaElement;

describe('webview: Steer', () => {
  it('no Steer while idle, with an agent that does not steer, or while the turn is being stopped', () => {
    for (const view of [
      { turn: 'idle' as const, capabilities: { image: false, audio: false, embeddedContext: false, steering: true }, enterWhileRunning: 'queue' as const },
      { turn: 'running' as const },
      { turn: 'cancelling' as const, capabilities: { image: false, audio: false, embeddedContext: false, steering: true }, enterWhileRunning: 'queue' as const },
    ]) {
      const h = mount(snapshot([], view));
      assert.equal(queryAllByRole(h.root, 'button', 'Steer').length, 0, JSON.stringify(view));
      h.unmount();
    }
    const h = mount(snapshot([], { turn: 'running' }));
    assert.match(box(h.root).placeholder, /messages are queued/);
    h.unmount();
  });

  it('Enter queues by default and the composer says Steer sends into the turn; Steer posts `steer`', () => {
    const h = mount(snapshot([], { turn: 'running', capabilities: { image: false, audio: false, embeddedContext: false, steering: true }, enterWhileRunning: 'queue' }));
    assert.match(box(h.root).placeholder, /Enter queues your message, Steer sends it into the running turn/);
    typeInto(box(h.root), 'queued one');
    keydown(box(h.root), 'Enter');
    assert.equal(h.last('prompt')?.prompt.text, 'queued one');
    assert.equal(h.last('steer'), undefined);
    typeInto(box(h.root), 'steer this');
    click(getByRole(h.root, 'button', 'Steer'));
    assert.deepEqual(h.last('steer'), { type: 'steer', sessionId: 's1', prompt: { text: 'steer this', mentions: [], images: [] } });
    assert.equal(box(h.root).value, '', 'the composer is cleared');
    h.unmount();
  });

  it('with switchboard.enterWhileRunning "steer": Enter steers, Send queues, and the composer says so', () => {
    const h = mount(snapshot([], { turn: 'running', capabilities: { image: false, audio: false, embeddedContext: false, steering: true }, enterWhileRunning: 'steer' }));
    assert.match(box(h.root).placeholder, /Enter steers it with your message, Send queues it/);
    typeInto(box(h.root), 'by enter');
    keydown(box(h.root), 'Enter');
    assert.equal(h.last('steer')?.prompt.text, 'by enter');
    typeInto(box(h.root), 'by send');
    click(getByRole(h.root, 'button', 'Send'));
    assert.equal(h.last('prompt')?.prompt.text, 'by send');
    // Once the turn ends, Enter sends as always.
    h.send({ type: 'session', session: { ...h.store.active!.view, turn: 'idle' } });
    typeInto(box(h.root), 'after the turn');
    keydown(box(h.root), 'Enter');
    assert.equal(h.last('prompt')?.prompt.text, 'after the turn');
    assert.equal(queryAllByRole(h.root, 'button', 'Steer').length, 0);
    h.unmount();
  });

  it('a steered message is marked where it went', () => {
    const h = mount(
      snapshot([
        { kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'write a poem' }] },
        { kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'about the sea' }] },
        { kind: 'user_message', id: 'u2', content: [{ type: 'text', text: 'mountains instead' }], steered: true },
      ]),
    );
    const messages = queryAllByRole(h.root, 'article').map(accessibleName);
    assert.deepEqual(messages, ['You', 'Agent', 'You (steered)']);
    assert.match(getByRole(h.root, 'article', 'You (steered)').textContent ?? '', /steered.*mountains instead/s);
    h.unmount();
  });
});
