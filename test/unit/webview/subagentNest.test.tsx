import './setupDom';
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type { PendingPermission } from '../../../src/shared/chatState';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { findMatches, nestsOfMatch } from '../../../webview-ui/src/find/transcriptSearch';
import { click, getByRole, keydown, mount, queryAllByRole, snapshot, typeInto } from './helpers';

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

  /** A session whose child c1 ran a Read and waits on an Edit, and whose grandchild c2 runs inside c1. */
  function nested(): TranscriptItem[] {
    const host = new TranscriptState('s1');
    host.apply(u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'go' } }));
    host.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore the code', state: { state: 'requires_action' } }));
    host.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 'c1-read', title: 'Read README.md', kind: 'read', status: 'completed' }));
    host.applyNested(['c1'], u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'the hidden needle is here' } }));
    host.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 'c1-edit', title: 'Edit notes.txt', kind: 'edit', status: 'pending' }));
    host.applyNested(['c1'], u({ sessionUpdate: 'subagent_update', sessionId: 'c2', title: 'Deeper helper', state: { state: 'running' } }));
    host.applyNested(['c1', 'c2'], u({ sessionUpdate: 'tool_call', toolCallId: 'c2-run', title: 'Run the tests', kind: 'execute', status: 'pending' }));
    host.applyNested(['c1', 'c2'], u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a deeper needle' } }));
    host.apply(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'parent text' } }));
    return host.transcript.items;
  }
  const ask = (requestId: string, toolCallId: string, title: string, subagentPath?: string[]): PendingPermission => ({
    requestId,
    toolCallId,
    title,
    ...(subagentPath ? { subagentPath } : {}),
    options: [
      { optionId: 'allow', name: `Allow ${title}`, kind: 'allow_once' },
      { optionId: 'reject', name: `Reject ${title}`, kind: 'reject_once' },
    ],
  });

  it("shows a child's permission request in the child's tool call card inside its nest, a grandchild's in the grandchild's, and answers them as any card", () => {
    const h = mount(snapshot(nested(), { turn: 'running', permissions: [ask('p1', 'c1-edit', 'Edit notes.txt', ['c1']), ask('p2', 'c2-run', 'Run the tests', ['c1', 'c2'])] }));
    const nest = getByRole(h.root, 'group', 'Explore the code');
    const edit = getByRole(nest, 'group', 'Edit notes.txt');
    assert.match(edit.textContent!, /Awaiting permission/);
    assert.ok(getByRole(edit, 'region', 'Permission: Edit notes.txt'), "the request is in the child's tool call card");
    const deeper = getByRole(nest, 'group', 'Deeper helper');
    assert.ok(getByRole(getByRole(deeper, 'group', 'Run the tests'), 'region', 'Permission: Run the tests'), "the grandchild's request in its own nest");
    assert.equal(h.root.querySelectorAll('.transcript-after .permission-card').length, 0, 'no card among the session\'s own below the transcript');
    assert.equal(h.root.querySelectorAll('.permission-request, .permission-card').length, 2, 'each request shows once');
    // The nest stays open while its requests wait.
    const toggle = getByRole(nest, 'button', 'Transcript of subagent Explore the code');
    assert.equal(toggle.getAttribute('aria-expanded'), 'true');
    assert.ok((toggle as HTMLButtonElement).disabled, 'not closable while it waits for the user');
    click(getByRole(edit, 'button', 'Allow Edit notes.txt'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: 'p1', answer: { optionId: 'allow' } });
    h.unmount();
  });

  it("keeps a child's request whose tool call or nest is unknown reachable: in the nest, else after the transcript", () => {
    const h = mount(snapshot(nested(), { permissions: [ask('p3', 'c1-nothing', 'Mystery tool', ['c1']), ask('p4', 'x', 'Stranger tool', ['c9'])] }));
    const nest = getByRole(h.root, 'group', 'Explore the code');
    assert.ok(getByRole(nest, 'region', 'Permission: Mystery tool'), 'a card of its own at the end of the nest');
    const after = h.root.querySelector('.transcript-after')!;
    assert.ok(getByRole(after as HTMLElement, 'region', 'Permission: Stranger tool'), 'a child with no nest: after the transcript');
    h.unmount();
  });

  it('shows the request of a child no one announced in its tool call inside the "Unknown subagent" card', () => {
    const host = new TranscriptState('s1');
    host.applyNested(['ghost'], u({ sessionUpdate: 'tool_call', toolCallId: 'ghost-edit', title: 'Ghost edit', kind: 'edit', status: 'pending' }));
    const h = mount(snapshot(host.transcript.items, { turn: 'running', permissions: [ask('p5', 'ghost-edit', 'Ghost edit', ['ghost'])] }));
    const ghost = getByRole(h.root, 'group', 'Unknown subagent');
    const request = getByRole(getByRole(ghost, 'group', 'Ghost edit'), 'region', 'Permission: Ghost edit');
    assert.equal(h.root.querySelectorAll('.transcript-after .permission-card').length, 0, "not among the session's own cards");
    click(getByRole(request, 'button', 'Allow Ghost edit'));
    assert.deepEqual(h.last('permissionAnswer'), { type: 'permissionAnswer', sessionId: 's1', requestId: 'p5', answer: { optionId: 'allow' } });
    h.unmount();
  });

  it('find reaches text in a collapsed nest and in a nest inside it, and opens them to show it', () => {
    const h = mount(snapshot(nested()));
    click(getByRole(h.root, 'button', 'Transcript of subagent Explore the code'));
    assert.equal(getByRole(h.root, 'button', 'Transcript of subagent Explore the code').getAttribute('aria-expanded'), 'false');
    assert.doesNotMatch(h.root.textContent!, /hidden needle/, 'the collapsed nest shows none of its transcript');
    keydown(h.root.querySelector('textarea')!, 'f', { ctrlKey: true });
    const box = getByRole(h.root, 'searchbox', 'Find in session') as HTMLInputElement;
    typeInto(box, 'NEEDLE');
    assert.match(h.root.querySelector('.find-count')!.textContent!, /1 of 2/, 'both needles, the nested ones included');
    assert.equal(getByRole(h.root, 'button', 'Transcript of subagent Explore the code').getAttribute('aria-expanded'), 'true', 'find opened the nest');
    assert.match(h.root.textContent!, /the hidden needle is here/);
    click(getByRole(h.root, 'button', 'Transcript of subagent Deeper helper'));
    assert.doesNotMatch(h.root.textContent!, /a deeper needle/);
    keydown(box, 'Enter');
    assert.match(h.root.querySelector('.find-count')!.textContent!, /2 of 2/);
    assert.equal(getByRole(h.root, 'button', 'Transcript of subagent Deeper helper').getAttribute('aria-expanded'), 'true', 'find opened the nest in the nest');
    assert.match(h.root.textContent!, /a deeper needle/);
    typeInto(box, 'Read README');
    assert.match(h.root.querySelector('.find-count')!.textContent!, /1 of 1/, "a nested tool call's title");
    h.unmount();
  });

  it('find counts matches in nests in order and says which nests hold each (none for a match in a header)', () => {
    const items = nested();
    const matches = findMatches(items, 'e');
    const inNest = matches.filter((m) => items[m.index].kind === 'subagent');
    assert.ok(inNest.length > 5);
    const first = nestsOfMatch(items[inNest[0].index], 'e', 0);
    assert.deepEqual(first, [], 'the first "e" is in the title "Explore the code", which shows without opening');
    const needles = findMatches(items, 'needle').map((m) => nestsOfMatch(items[m.index], 'needle', m.occurrence));
    const outer = items.find((i) => i.kind === 'subagent');
    const deeper = outer?.kind === 'subagent' ? outer.transcript.items.find((c) => c.kind === 'subagent') : undefined;
    assert.ok(outer && deeper);
    assert.deepEqual(needles, [[outer.id], [outer.id, deeper.id]], 'the first needle in the child, the second in the grandchild');
    assert.deepEqual(nestsOfMatch(items[0], 'go', 0), [], 'not a nest');
  });
});
