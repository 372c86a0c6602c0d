// Where a message goes after switching agents and pressing New session: the session the user asked for,
// until the host says that very request settled; never the tab left behind, never a stale session.
// No frame is flushed between a click and the keys typed after it (a user can be that fast).
import './setupDom';
import * as assert from 'node:assert/strict';
import type { SessionView } from '../../../src/shared/chatState';
import { click, change, getByRole, keydown, mount, queryAllByRole, sessionView, snapshot, typeInto, type Harness } from './helpers';

const FAKE = 'Fake Agent';
const OTHER = 'Other Agent';

const picker = (h: Harness) => getByRole(h.root, 'combobox', 'Agent') as HTMLSelectElement;
const box = (h: Harness) => getByRole(h.root, 'textbox', 'Message') as HTMLTextAreaElement;

/** Types and sends `text` with Enter, without waiting for a frame. */
function send(h: Harness, text: string): void {
  typeInto(box(h), text);
  keydown(box(h), 'Enter');
}

/** The host opened `sessionId` for the request: its view, its activation, then the settle, in one batch (as the controller sends them). */
function opened(h: Harness, requestId: string, view: Partial<SessionView> & { sessionId: string }): void {
  h.send({ type: 'batch', messages: [
    { type: 'session', session: sessionView(view) },
    { type: 'activeSession', sessionId: view.sessionId },
    { type: 'newSessionSettled', requestId, sessionId: view.sessionId },
  ] });
}

function lastNewSession(h: Harness): { agentId?: string; requestId: string } {
  const m = h.last('newSession');
  assert.ok(m?.requestId, 'a newSession with a request id');
  return { agentId: m.agentId, requestId: m.requestId };
}

describe('webview: switching agents, then New session', () => {
  it("pick B: B's tab opens; New session: a second B session is asked for and the message waits for it", () => {
    const h = mount(snapshot([]));
    change(picker(h), OTHER);
    const first = lastNewSession(h);
    assert.equal(first.agentId, OTHER);
    opened(h, first.requestId, { sessionId: 's2', agentId: OTHER });
    assert.equal(queryAllByRole(h.root, 'tab').length, 2);
    assert.equal(picker(h).value, OTHER);

    click(getByRole(h.root, 'button', 'New session'));
    const second = lastNewSession(h);
    assert.equal(second.agentId, OTHER, 'New session starts the picked agent');
    assert.notEqual(second.requestId, first.requestId);
    assert.equal(picker(h).value, OTHER);
    assert.ok(queryAllByRole(h.root, 'status').some((e) => /Starting a new session with Other Agent/.test(e.textContent ?? '')), 'says what it waits for');
    send(h, 'to B');
    assert.deepEqual(h.last('prompt'), { type: 'prompt', agentId: OTHER, newSessionRequestId: second.requestId, prompt: { text: 'to B', mentions: [], images: [] } });
    assert.equal(queryAllByRole(h.root, 'tab').length, 2, "B's first tab stays");

    opened(h, second.requestId, { sessionId: 's3', agentId: OTHER });
    assert.equal(queryAllByRole(h.root, 'tab').length, 3);
    assert.equal(picker(h).value, OTHER);
    send(h, 'again');
    assert.equal(h.last('prompt')?.sessionId, 's3', 'once open, messages go to it by id');
    h.unmount();
  });

  it("with A's turn still running, the message goes to B's new session, and A's Stop stays in A's tab", () => {
    const h = mount(snapshot([], { turn: 'running' }));
    change(picker(h), OTHER);
    const r = lastNewSession(h);
    const stop = () => getByRole(h.root, 'button', 'Stop') as HTMLButtonElement;
    assert.equal(stop().disabled, true, 'the composer writes to the session starting, not to A');
    send(h, 'to B');
    assert.equal(h.last('prompt')?.newSessionRequestId, r.requestId);
    assert.equal(h.last('prompt')?.sessionId, undefined);
    assert.equal(h.posted.filter((m) => m.type === 'cancel').length, 0);
    opened(h, r.requestId, { sessionId: 's2', agentId: OTHER });
    click(queryAllByRole(h.root, 'tab')[0]);
    h.send({ type: 'activeSession', sessionId: 's1' });
    assert.equal(stop().disabled, false, "A's turn can be stopped in its tab");
    h.unmount();
  });

  it('a session opened for an older request does not end the wait for the newer one', () => {
    const h = mount(snapshot([]));
    change(picker(h), OTHER);
    const first = lastNewSession(h);
    // New session again before the first one opened.
    click(getByRole(h.root, 'button', 'New session'));
    const second = lastNewSession(h);
    opened(h, first.requestId, { sessionId: 's2', agentId: OTHER });
    send(h, 'for the second');
    assert.equal(h.last('prompt')?.newSessionRequestId, second.requestId, 'still waits for the session asked for last');
    assert.equal(h.last('prompt')?.sessionId, undefined);
    h.unmount();
  });

  it('picking the shown tab\'s agent again while another starts goes back to that tab', () => {
    const h = mount(snapshot([]));
    change(picker(h), OTHER);
    change(picker(h), FAKE);
    assert.deepEqual(h.last('selectSession'), { type: 'selectSession', sessionId: 's1' });
    assert.equal(picker(h).value, FAKE);
    send(h, 'to A');
    assert.equal(h.last('prompt')?.sessionId, 's1', 'the message goes to the agent the picker shows');
    h.unmount();
  });

  it('what was typed while the session started moves into it', () => {
    const h = mount(snapshot([]));
    click(getByRole(h.root, 'button', 'New session'));
    const r = lastNewSession(h);
    typeInto(box(h), 'half a thought');
    opened(h, r.requestId, { sessionId: 's2' });
    h.settle();
    assert.equal(box(h).value, 'half a thought');
    click(queryAllByRole(h.root, 'tab')[0]);
    h.send({ type: 'activeSession', sessionId: 's1' });
    h.settle();
    assert.equal(box(h).value, '', "the first tab's draft is its own");
    h.unmount();
  });

  it('a failed request, a settle for a request it never made, and a reload while one is pending', () => {
    const h = mount(snapshot([]));
    h.send({ type: 'newSessionSettled', requestId: 'not-ours', sessionId: 's9' });
    send(h, 'here');
    assert.equal(h.last('prompt')?.sessionId, 's1');
    change(picker(h), OTHER);
    const r = lastNewSession(h);
    h.send({ type: 'newSessionSettled', requestId: r.requestId });
    assert.equal(picker(h).value, FAKE, 'a failed start gives the picker back to the tab shown');
    send(h, 'after the failure');
    assert.equal(h.last('prompt')?.sessionId, 's1');
    // The view is re-created while the host still waits for a session: the snapshot says so.
    h.send({ type: 'init', protocolVersion: 2, snapshot: { ...snapshot([]), starting: { requestId: 'n-host', agentId: OTHER } } });
    assert.equal(picker(h).value, OTHER);
    send(h, 'after the reload');
    assert.equal(h.last('prompt')?.newSessionRequestId, 'n-host');
    h.unmount();
  });
});
