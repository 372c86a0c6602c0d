// A steered message in the session reducer: one user message marked `steered` where the turn is, which the
// agent's later chunks do not join, and which does not start a turn of its own (the turn's open tool calls
// still end with it; an answer after it counts for the turn's emptiness); the ops a copy applies match.
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import type { Transcript } from '../../../src/shared/transcript';
import { applyTranscriptOps, type TranscriptOp } from '../../../src/shared/transcriptOps';

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);
const say = (kind: string, text: string) => u({ sessionUpdate: kind, content: { type: 'text', text } });

describe('session reducer: steered messages', () => {
  it('is one marked user message where the turn is; later chunks and the turn end treat the turn as one', () => {
    const s = new TranscriptState('s');
    let copy: Transcript = structuredClone(s.transcript);
    const step = (ops: TranscriptOp[]) => (copy = applyTranscriptOps(copy, ops));
    step(s.recordUserPrompt([{ type: 'text', text: 'write a poem' }]));
    step(s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', status: 'in_progress' })));
    step(s.apply(say('agent_message_chunk', 'about the sea')));
    step(s.recordSteeredPrompt([{ type: 'text', text: 'about mountains' }, { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' }]));
    step(s.apply(say('agent_message_chunk', 'mountains it is')));
    const end = s.recordTurnEnd('end_turn');
    step(end);
    const kinds = s.transcript.items.map((i) => (i.kind === 'user_message' && i.steered ? 'steered' : i.kind));
    assert.deepEqual(kinds, ['user_message', 'tool_call', 'agent_message', 'steered', 'agent_message', 'turn_end']);
    const steered = s.transcript.items[3];
    assert.ok(steered.kind === 'user_message' && steered.content.length === 2, 'both blocks, in one item');
    const call = s.transcript.items[1];
    assert.ok(call.kind === 'tool_call' && call.unfinished === 'end_turn', "the turn's open tool call ends with the turn, past the steered message");
    assert.deepEqual(copy, s.transcript);
  });

  it("the agent's user_message_chunk after it is a message of its own, never joined to the steered one", () => {
    const s = new TranscriptState('s');
    s.recordSteeredPrompt([{ type: 'text', text: 'steer' }]);
    s.apply(say('user_message_chunk', 'replayed'));
    assert.deepEqual(s.transcript.items.map((i) => (i.kind === 'user_message' ? [i.steered ?? false, i.content.length] : i.kind)), [[true, 1], [false, 1]]);
  });

  it('a turn whose only answer came before the steer is not empty', () => {
    const s = new TranscriptState('s');
    s.recordUserPrompt([{ type: 'text', text: 'q' }]);
    s.apply(say('agent_message_chunk', 'a'));
    s.recordSteeredPrompt([{ type: 'text', text: 'and also' }]);
    const [op] = s.recordTurnEnd('end_turn');
    assert.ok(op.op === 'append' && op.item.kind === 'turn_end' && op.item.empty === false);
  });
});
