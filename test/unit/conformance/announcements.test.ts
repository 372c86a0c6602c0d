// The reducer's rule for a `tool_call` whose card already exists (a repeat, or one sent after updates),
// case by case; the orderings test replays whole recorded turns.
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type { TranscriptItem } from '../../../src/shared/transcript';

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);
const call = (fields: Record<string, unknown>) => u({ sessionUpdate: 'tool_call', toolCallId: 't', ...fields });
const update = (fields: Record<string, unknown>) => u({ sessionUpdate: 'tool_call_update', toolCallId: 't', ...fields });

function card(s: TranscriptState): Extract<TranscriptItem, { kind: 'tool_call' }> {
  const cards = s.transcript.items.filter((i) => i.kind === 'tool_call');
  assert.equal(cards.length, 1, 'one card');
  return cards[0] as Extract<TranscriptItem, { kind: 'tool_call' }>;
}

describe('conformance: a tool_call for a card that already exists', () => {
  it('a late tool_call (pending) after in_progress fills in the card and leaves its status', () => {
    const s = new TranscriptState('s');
    s.apply(update({ status: 'in_progress' }));
    s.apply(call({ title: 'read_files', kind: 'read', status: 'pending', rawInput: { paths: ['a'] } }));
    assert.deepEqual({ ...card(s), id: undefined }, { kind: 'tool_call', id: undefined, toolCallId: 't', title: 'read_files', toolKind: 'read', status: 'in_progress', content: [], locations: [], rawInput: { paths: ['a'] } });
  });

  it('never takes back what an update said: status, content, title', () => {
    const s = new TranscriptState('s');
    s.apply(update({ status: 'completed', title: 'Read a.txt', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] }));
    s.apply(call({ title: 'Read', kind: 'read', status: 'pending', content: [{ type: 'content', content: { type: 'text', text: 'starting' } }] }));
    const c = card(s);
    assert.equal(c.status, 'completed');
    assert.equal(c.title, 'Read a.txt');
    assert.equal(c.toolKind, 'read');
    assert.deepEqual(c.content, [{ type: 'content', content: { type: 'text', text: 'done' } }]);
  });

  it('a repeated announcement refines the earlier one (the whole input after a bare start)', () => {
    const s = new TranscriptState('s');
    s.apply(call({ title: 'Edit', kind: 'edit', status: 'pending', rawInput: {} }));
    s.apply(call({ title: 'Edit a.txt', kind: 'edit', status: 'pending', rawInput: { file_path: '/w/a.txt' }, locations: [{ path: '/w/a.txt' }] }));
    const c = card(s);
    assert.equal(c.title, 'Edit a.txt');
    assert.deepEqual(c.rawInput, { file_path: '/w/a.txt' });
    assert.deepEqual(c.locations, [{ path: '/w/a.txt' }]);
  });

  it('a bare repeat blanks nothing: no empty title, content or locations replace what the card shows', () => {
    const s = new TranscriptState('s');
    s.apply(call({ title: 'Edit a.txt', kind: 'edit', status: 'in_progress', locations: [{ path: '/w/a.txt' }], content: [{ type: 'diff', path: '/w/a.txt', oldText: 'a', newText: 'b' }] }));
    s.apply(call({ status: 'pending', content: [], locations: [] }));
    const c = card(s);
    assert.equal(c.title, 'Edit a.txt');
    assert.equal(c.status, 'in_progress');
    assert.equal(c.locations.length, 1);
    assert.equal(c.content.length, 1);
  });

  it('a tool_call with no status is pending until an update completes it', () => {
    const s = new TranscriptState('s');
    s.apply(call({ title: 'view', kind: 'read' }));
    assert.equal(card(s).status, 'pending');
    s.apply(update({ status: 'completed' }));
    assert.equal(card(s).status, 'completed');
  });

  it('updates still set any status, backwards included: the rule is only for announcements', () => {
    const s = new TranscriptState('s');
    s.apply(call({ title: 'x', status: 'in_progress' }));
    s.apply(update({ status: 'pending' }));
    assert.equal(card(s).status, 'pending');
  });

  it('a repeat with nonsense in it (unknown status, a number for a title) changes nothing it cannot read', () => {
    const s = new TranscriptState('s');
    s.apply(call({ title: 'run', kind: 'execute', status: 'in_progress' }));
    s.apply(call({ title: 42, status: 'done', kind: 'teleport' }));
    const c = card(s);
    assert.equal(c.title, 'run');
    assert.equal(c.status, 'in_progress');
    assert.equal(c.rawKind, 'teleport');
  });
});
