// The subagent nest in the session reducer: a child session's transcript inside its parent's item, changed
// only by ops (`nest` wraps the child reducer's own), so the webview's copy stays equal to the host's.
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type { SubagentItem, Transcript } from '../../../src/shared/transcript';
import { applyTranscriptOps, type TranscriptOp } from '../../../src/shared/transcriptOps';

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);
const say = (t: string, messageId?: string) => u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t }, ...(messageId ? { messageId } : {}) });
const announce = (child: string, fields: Record<string, unknown> = {}) => u({ sessionUpdate: 'subagent_update', sessionId: child, ...fields });

/** A reducer and a copy that gets only its ops, as the webview does (through JSON, as postMessage). */
function pair(initial: Transcript | string = 'root') {
  const state = new TranscriptState(initial);
  let copy: Transcript = JSON.parse(JSON.stringify(state.transcript)) as Transcript;
  const take = (ops: TranscriptOp[]) => {
    copy = applyTranscriptOps(copy, JSON.parse(JSON.stringify(ops)) as TranscriptOp[]);
    return ops;
  };
  return { state, take, copy: () => copy };
}

function nest(t: Transcript, at = 0): SubagentItem {
  const item = t.items[at];
  assert.ok(item.kind === 'subagent', `item ${at} is ${item.kind}`);
  return item;
}

describe('subagent nest (reducer)', () => {
  it("nests a child's messages, tool calls and state under its item; the ops rebuild the same transcript", () => {
    const { state, take, copy } = pair();
    take(state.apply(say('Let me delegate.')));
    take(state.apply(announce('c1', { title: 'Explore', description: 'Explore', capabilities: { cancel: {} }, state: { state: 'running' } })));
    take(state.apply(u({ sessionUpdate: 'session_message', messageId: 'toolu_1', senderSessionId: 'root', recipientSessionId: 'c1', recipientMessageId: 'toolu_1', content: [{ type: 'text', text: 'Find the tests' }] })));
    take(state.applyNested(['c1'], u({ sessionUpdate: 'session_message', messageId: 'toolu_1', senderSessionId: 'root', recipientSessionId: 'c1', senderMessageId: 'toolu_1', content: [{ type: 'text', text: 'Find the tests' }] })));
    take(state.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read a', kind: 'read', status: 'in_progress' })));
    for (const piece of ['Found ', 'them']) take(state.applyNested(['c1'], say(piece, 'cm')));
    take(state.applyNested(['c1'], u({ sessionUpdate: 'tool_call_update', toolCallId: 'r1', status: 'completed' })));
    take(state.applyNested(['c1'], u({ sessionUpdate: 'usage_update', used: 10, size: 100 })));
    take(state.apply(announce('c1', { state: { state: 'idle', stopReason: 'end_turn', usage: { totalTokens: 42 } } })));
    take(state.apply(say('Done.')));
    assert.deepEqual(copy(), JSON.parse(JSON.stringify(state.transcript)));
    assert.deepEqual(state.transcript.items.map((i) => i.kind), ['agent_message', 'subagent', 'agent_message']);
    const item = nest(state.transcript, 1);
    assert.equal(item.title, 'Explore');
    assert.equal(item.cancellable, true);
    assert.equal(item.toolCallId, 'toolu_1', 'the Task call that started it, named by the prompt message');
    assert.deepEqual(item.state, { state: 'idle', stopReason: 'end_turn', usage: { totalTokens: 42 } });
    const kinds = item.transcript.items.map((i) => i.kind);
    assert.deepEqual(kinds, ['session_message', 'tool_call', 'agent_message'], "the parent's and the child's views of the prompt are one message");
    const message = item.transcript.items[2];
    assert.ok(message.kind === 'agent_message' && message.content[0].type === 'text' && message.content[0].text === 'Found them');
    assert.deepEqual(item.transcript.usage, { used: 10, size: 100 });
    // Ids unique in the whole chat: the webview keys components and text streams by them.
    assert.ok(item.transcript.items.every((i) => i.id.startsWith(`${item.id}.`)));
  });

  it('keeps updates of a child never announced, under an "unannounced" nest; an announcement later names it', () => {
    const { state, take, copy } = pair();
    take(state.applyNested(['ghost'], say('who am I')));
    take(state.applyNested(['ghost'], u({ sessionUpdate: 'tool_call', toolCallId: 'g', title: 'Ghost tool', status: 'completed' })));
    let item = nest(state.transcript);
    assert.equal(item.unannounced, true);
    assert.equal(item.transcript.items.length, 2);
    take(state.apply(announce('ghost', { title: 'Late' })));
    item = nest(state.transcript);
    assert.equal(item.unannounced, undefined);
    assert.equal(item.title, 'Late');
    assert.equal(item.transcript.items.length, 2, 'what it said before is kept');
    assert.deepEqual(copy(), JSON.parse(JSON.stringify(state.transcript)));
  });

  it('a child outlives its parent turn: its nest keeps changing after the turn end, and its tool calls are not ended by it', () => {
    const { state, take, copy } = pair();
    take(state.apply(announce('c1', { state: { state: 'running' } })));
    take(state.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Long job', status: 'in_progress' })));
    take(state.recordTurnEnd('end_turn'));
    take(state.applyNested(['c1'], say('late work')));
    take(state.apply(announce('c1', { state: { state: 'idle', stopReason: 'end_turn' } })));
    const item = nest(state.transcript);
    const call = item.transcript.items[0];
    assert.ok(call.kind === 'tool_call' && call.unfinished === undefined);
    assert.equal(item.transcript.items[1].kind, 'agent_message');
    assert.equal(state.transcript.items.at(-1)?.kind, 'turn_end');
    assert.deepEqual(copy(), JSON.parse(JSON.stringify(state.transcript)));
    const end = state.transcript.items[1];
    assert.ok(end.kind === 'turn_end' && !end.empty, 'a turn that started a subagent did answer');
  });

  it('nests grandchildren, and patches fields: omitted keeps, null clears, a malformed field is ignored', () => {
    const { state, take, copy } = pair();
    take(state.apply(announce('c1', { title: 'Parent child', cwd: '/w', capabilities: { cancel: {} } })));
    take(state.applyNested(['c1'], announce('g1', { title: 'Grandchild' })));
    take(state.applyNested(['c1', 'g1'], say('deep')));
    take(state.apply(announce('c1', { title: 7, cwd: null, capabilities: null })));
    const item = nest(state.transcript);
    assert.equal(item.title, 'Parent child');
    assert.equal(item.cwd, undefined);
    assert.equal(item.cancellable, undefined);
    const grandchild = nest(item.transcript);
    assert.equal(grandchild.title, 'Grandchild');
    assert.equal(grandchild.transcript.items.length, 1);
    assert.deepEqual(copy(), JSON.parse(JSON.stringify(state.transcript)));
    assert.deepEqual(state.nestedSessions(), ['c1', 'g1']);
    assert.equal(state.nestOf('g1')?.title, 'Grandchild');
  });

  it('a saved transcript (JSON) is reduced on: nests, their ids and their streaming go on where they were', () => {
    const first = new TranscriptState('root');
    first.apply(announce('c1', { title: 'Explore' }));
    first.applyNested(['c1'], say('part one ', 'm'));
    const saved = JSON.parse(JSON.stringify(first.transcript)) as Transcript;
    const { state, take, copy } = pair(saved);
    take(state.applyNested(['c1'], say('part two', 'm')));
    take(state.applyNested(['c1'], u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Next' })));
    const item = nest(state.transcript);
    const message = item.transcript.items[0];
    assert.ok(message.kind === 'agent_message' && message.content[0].type === 'text');
    assert.equal(message.content[0].text, 'part one part two');
    assert.equal(new Set(item.transcript.items.map((i) => i.id)).size, 2);
    assert.deepEqual(copy(), JSON.parse(JSON.stringify(state.transcript)));
  });

  it('a message between the session and one not nested in it stays a message of its own', () => {
    const state = new TranscriptState('root');
    state.apply(u({ sessionUpdate: 'session_message', messageId: 'm', senderSessionId: 'elsewhere', content: [{ type: 'text', text: 'hi' }] }));
    assert.deepEqual(state.transcript.items.map((i) => i.kind), ['session_message']);
  });
});
