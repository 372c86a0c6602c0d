import './setupDom';
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { sectionOfMatch } from '../../../webview-ui/src/find/transcriptSearch';
import { click, getByRole, keydown, mount, snapshot, typeInto } from './helpers';

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);
const text = (t: string) => ({ type: 'content', content: { type: 'text', text: t } });

/** Finished Reads (their "Details" start collapsed), one in the session and one in a subagent, and a thought. */
function session(): TranscriptItem[] {
  const host = new TranscriptState('s1');
  host.apply(u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'go' } }));
  host.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read a.txt', kind: 'read', status: 'completed', content: [text('the top needle in the output')] }));
  host.apply(u({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'a thinking needle' } }));
  host.apply(u({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore', state: { state: 'running' } }));
  host.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 'r2', title: 'Read needle.txt', kind: 'read', status: 'completed', content: [text('a nested needle in the output')] }));
  host.apply(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'parent text' } }));
  return host.transcript.items;
}

const expanded = (root: HTMLElement, name: string) => getByRole(root, 'button', name).getAttribute('aria-expanded');
const count = (root: HTMLElement) => root.querySelector('.find-count')!.textContent!;

describe('webview: find opens the collapsed section that holds its match', () => {
  it("opens a finished tool call's Details, a thought, and a nested tool call's Details, one match at a time", () => {
    const h = mount(snapshot(session()));
    assert.equal(expanded(h.root, 'Details of Read a.txt'), 'false', "a finished Read's Details start collapsed");
    assert.equal(expanded(h.root, 'Thinking'), 'false');
    assert.doesNotMatch(h.root.textContent!, /top needle|thinking needle/);
    keydown(h.root.querySelector('textarea')!, 'f', { ctrlKey: true });
    const box = getByRole(h.root, 'searchbox', 'Find in session') as HTMLInputElement;
    typeInto(box, 'needle');
    assert.match(count(h.root), /1 of 4/);
    assert.equal(expanded(h.root, 'Details of Read a.txt'), 'true', 'find opened the Details holding the first match');
    assert.match(getByRole(h.root, 'group', 'Read a.txt').textContent!, /the top needle in the output/);
    keydown(box, 'Enter');
    assert.match(count(h.root), /2 of 4/);
    assert.equal(expanded(h.root, 'Thinking'), 'true', 'find opened the thought');
    assert.match(h.root.textContent!, /a thinking needle/);
    // Closed again by the user: the next match in a nest opens the nest, not the nest's tool call (its title matches).
    click(getByRole(h.root, 'button', 'Transcript of subagent Explore'));
    keydown(box, 'Enter');
    assert.match(count(h.root), /3 of 4/);
    assert.equal(expanded(h.root, 'Transcript of subagent Explore'), 'true', 'find opened the nest');
    assert.equal(expanded(h.root, 'Details of Read needle.txt'), 'false', 'a match in the title shows without opening Details');
    keydown(box, 'Enter');
    assert.match(count(h.root), /4 of 4/);
    assert.equal(expanded(h.root, 'Details of Read needle.txt'), 'true', "find opened the nested tool call's Details");
    assert.match(getByRole(h.root, 'group', 'Read needle.txt').textContent!, /a nested needle in the output/);
    // Wrapping round opens the first one again after the user closed it.
    click(getByRole(h.root, 'button', 'Details of Read a.txt'));
    keydown(box, 'Enter');
    assert.match(count(h.root), /1 of 4/);
    assert.equal(expanded(h.root, 'Details of Read a.txt'), 'true');
    h.unmount();
  });

  it("opens the Contents of a file attached to a prompt when the match is in them, not when it is in the prompt's text", () => {
    const host = new TranscriptState('s1');
    host.apply(u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'look at the needle file' } }));
    host.apply(u({ sessionUpdate: 'user_message_chunk', content: { type: 'resource', resource: { uri: 'file:///w/notes.md', text: 'an attached needle' } } }));
    const h = mount(snapshot(host.transcript.items));
    assert.equal(expanded(h.root, 'Contents of notes.md'), 'false');
    keydown(h.root.querySelector('textarea')!, 'f', { ctrlKey: true });
    const box = getByRole(h.root, 'searchbox', 'Find in session') as HTMLInputElement;
    typeInto(box, 'needle');
    assert.match(count(h.root), /1 of 2/);
    assert.equal(expanded(h.root, 'Contents of notes.md'), 'false', "the prompt's own text shows without opening");
    keydown(box, 'Enter');
    assert.match(count(h.root), /2 of 2/);
    assert.equal(expanded(h.root, 'Contents of notes.md'), 'true', "find opened the attachment's contents");
    assert.match(h.root.textContent!, /an attached needle/);
    h.unmount();
  });

  it('names the item whose section holds a match, and none for a match in what shows without opening', () => {
    const items = session();
    const read = items.find((i) => i.kind === 'tool_call')!;
    assert.equal(sectionOfMatch(read, 'read', 0), undefined, 'the title shows in the card header');
    assert.equal(sectionOfMatch(read, 'NEEDLE', 0), read.id);
    const nest = items.find((i) => i.kind === 'subagent');
    const inner = nest?.kind === 'subagent' ? nest.transcript.items.find((i) => i.kind === 'tool_call') : undefined;
    assert.ok(nest && inner);
    assert.equal(sectionOfMatch(nest, 'needle', 0), undefined, "the nested call's title");
    assert.equal(sectionOfMatch(nest, 'needle', 1), inner.id, "the nested call's output");
    assert.equal(sectionOfMatch(nest, 'needle', 5), undefined, 'no such match');
    assert.equal(sectionOfMatch(items[0], 'go', 0), undefined, 'a prompt has no section');
  });
});
