import './setupDom';
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import { click, getByRole, mount, queryAllByRole, snapshot } from './helpers';

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);

describe('webview: a subagent nest', () => {
  it("shows the child as its call's card: title, state, Cancel, its own tool calls and messages; ops stream into it", () => {
    // The host's reducer makes the ops the webview applies.
    const host = new TranscriptState('s1');
    const h = mount(snapshot([]));
    const send = (ops: ReturnType<TranscriptState['apply']>) => h.sendOps('s1', ops);
    send(host.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore the code', description: 'Explore', capabilities: { cancel: {} }, state: { state: 'running' } })));
    send(host.apply(u({ sessionUpdate: 'session_message', messageId: 'toolu_1', senderSessionId: 's1', recipientSessionId: 'c1', content: [{ type: 'text', text: 'Find the tests' }] })));
    send(host.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read README.md', kind: 'read', status: 'in_progress' })));
    send(host.applyNested(['c1'], u({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'Found ' } })));
    send(host.applyNested(['c1'], u({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: 'them' } })));
    h.settle();
    const card = getByRole(h.root, 'group', 'Explore the code');
    assert.match(card.textContent!, /Running/);
    assert.ok(getByRole(card, 'group', 'Read README.md'), "the child's tool call is nested in the card");
    assert.ok(getByRole(card, 'article', 'parent → Explore the code'), 'the prompt, sender → recipient');
    assert.match(card.textContent!, /Found them/);
    click(getByRole(card, 'button', 'Cancel subagent Explore the code'));
    assert.deepEqual(h.last('cancelSubagent'), { type: 'cancelSubagent', sessionId: 's1', subagentSessionId: 'c1' });
    send(host.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'requires_action' } })));
    assert.match(getByRole(h.root, 'group', 'Explore the code').textContent!, /Waiting for you/);
    send(host.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: 'idle', stopReason: 'cancelled', usage: { totalTokens: 42 } } })));
    const done = getByRole(h.root, 'group', 'Explore the code');
    assert.match(done.textContent!, /Cancelled/);
    assert.match(done.textContent!, /42 tokens/);
    assert.equal(queryAllByRole(done, 'button', /Cancel subagent/).length, 0, 'no Cancel once its work ended');
    h.unmount();
  });

  it('shows a child no one announced as "Unknown subagent", and no Cancel without the capability', () => {
    const host = new TranscriptState('s1');
    const h = mount(snapshot([]));
    h.sendOps('s1', host.applyNested(['ghost'], u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'who am I' } })));
    h.sendOps('s1', host.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'plain', title: 'No cancel', state: { state: 'running' } })));
    h.settle();
    const ghost = getByRole(h.root, 'group', 'Unknown subagent');
    assert.match(ghost.textContent!, /who am I/);
    assert.match(ghost.textContent!, /without announcing it/);
    assert.equal(queryAllByRole(getByRole(h.root, 'group', 'No cancel'), 'button', /Cancel subagent/).length, 0);
    h.unmount();
  });
});
