// The session reducer on its own: merge rules, immutability of items, pure vs stateful.
import * as assert from 'node:assert/strict';
import { emptyTranscript, MAX_TOOL_OUTPUT, type Transcript } from '../../../src/shared/transcript';
import { parseSessionUpdate, TranscriptState } from '../../../src/acp';
import { PromptResultSchema } from '../../../src/acp/schema/agentResponses';
import { applyTranscriptOps, type TranscriptOp } from '../../../src/shared/transcriptOps';
import { reduceTranscript, recordTurnEnd } from './reduce';

function emptyTurnEnd(ops: TranscriptOp[]): boolean {
  const [op] = ops;
  assert.ok(op.op === 'append' && op.item.kind === 'turn_end');
  return op.item.empty;
}

const u = (raw: Record<string, unknown>) => parseSessionUpdate(raw);
const chunk = (kind: string, text: string, messageId?: string) => u({ sessionUpdate: kind, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) });

describe('session reducer', () => {
  it('joins a long stream of chunks exactly, across the points where it flattens the text', () => {
    // 3,000 chunks of growing, mixed-width text (ASCII, 2-byte and astral characters) into one message.
    const s = new TranscriptState('s');
    let expected = '';
    for (let i = 0; i < 3000; i++) {
      const piece = `${i}é${'x'.repeat(i % 37)}😀`;
      expected += piece;
      s.apply(chunk('agent_message_chunk', piece, 'm'));
    }
    const [item] = s.transcript.items;
    assert.ok(item.kind === 'agent_message');
    assert.equal((item.content[0] as { text: string }).text, expected);
  });

  it('merges chunks per messageId even when interleaved, and consecutive runs without one', () => {
    const s = new TranscriptState('s');
    s.apply(chunk('agent_message_chunk', 'A1', 'a'));
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' }));
    s.apply(chunk('agent_message_chunk', 'B1', 'b'));
    s.apply(chunk('agent_message_chunk', 'A2', 'a'));
    s.apply(chunk('agent_thought_chunk', 'T1'));
    s.apply(chunk('agent_thought_chunk', 'T2'));
    s.apply(chunk('agent_message_chunk', 'C1'));
    s.apply(chunk('agent_message_chunk', 'C2'));
    const texts = s.transcript.items.map((i) => ('content' in i && i.kind !== 'tool_call' ? `${i.kind}:${(i.content[0] as { text: string }).text}` : i.kind));
    assert.deepEqual(texts, ['agent_message:A1A2', 'tool_call', 'agent_message:B1', 'thought:T1T2', 'agent_message:C1C2']);
  });

  // Measured on codex-acp 0.16.0 and claude-agent-acp 0.101.0 with clientCapabilities._meta.terminal_output.
  it("keeps the output of a shell the agent ran itself: streamed _meta.terminal_output, terminal_exit, and Codex's rawOutput", () => {
    const s = new TranscriptState('s');
    const command = ['/bin/bash', '-lc', 'echo tick; sleep 1; echo done'];
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'call_4', name: 'Bash', title: 'echo tick', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'call_4' }], rawInput: { command }, _meta: { terminal_info: { terminal_id: 'call_4', cwd: '/proj' } } }));
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_4', _meta: { terminal_output: { terminal_id: 'call_4', data: 'tick\n\u001b[32m' } } }));
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_4', _meta: { terminal_output: { terminal_id: 'call_4', data: 'done\u001b[0m\n' } } }));
    let call = s.transcript.items[0];
    assert.equal(call.kind === 'tool_call' && call.output?.text, 'tick\n\u001b[32mdone\u001b[0m\n');
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_4', status: 'completed', _meta: { terminal_exit: { terminal_id: 'call_4', exit_code: 3, signal: null } } }));
    call = s.transcript.items[0];
    assert.ok(call.kind === 'tool_call');
    assert.deepEqual(call.output, { text: 'tick\n\u001b[32mdone\u001b[0m\n', truncated: false, exitCode: 3 });
    assert.deepEqual(call.content, [{ type: 'terminal', terminalId: 'call_4' }]);
    assert.equal(call.toolName, 'Bash', "ToolCall.name is kept (the agent's programmatic tool name)");

    // Without terminal_output Codex sends the output only in rawOutput; it is the whole output.
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'call_7', title: 'echo hi', kind: 'execute', status: 'in_progress', rawInput: { command } }));
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_7', status: 'completed', rawOutput: { stdout: 'hi\n', stderr: '', aggregated_output: 'hi\n', exit_code: 0, formatted_output: 'hi\n3 notes.txt\n' } }));
    const codex = s.transcript.items[1];
    assert.ok(codex.kind === 'tool_call');
    assert.deepEqual(codex.output, { text: 'hi\n3 notes.txt\n', truncated: false, exitCode: 0 });

    // stdout and stderr alone; a read tool's rawOutput is not command output.
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'ls', kind: 'execute', rawOutput: { stdout: 'a', stderr: 'oops\n' } }));
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'Read a', kind: 'read', rawOutput: { output: 'file text' } }));
    const [, , plain, read] = s.transcript.items;
    assert.ok(plain.kind === 'tool_call' && read.kind === 'tool_call');
    assert.equal(plain.output?.text, 'a\noops\n');
    assert.equal(read.output, undefined);
  });

  it("keeps the turn's token usage from the prompt response (unstable PromptResponse.usage); bad counts are dropped, not fatal", () => {
    const sent = { stopReason: 'end_turn', usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280, cachedReadTokens: 1000, thoughtTokens: null, cachedWriteTokens: -3 } };
    const parsed = PromptResultSchema.parse(sent);
    assert.deepEqual(parsed, { stopReason: 'end_turn', usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280, cachedReadTokens: 1000 } });
    assert.deepEqual(PromptResultSchema.parse({ stopReason: 'end_turn', usage: 'lots' }), { stopReason: 'end_turn', usage: undefined });
    assert.deepEqual(PromptResultSchema.parse({ stopReason: 'end_turn', usage: null }), { stopReason: 'end_turn', usage: undefined });
    const s = new TranscriptState('s');
    s.apply(chunk('agent_message_chunk', 'hi'));
    const [op] = s.recordTurnEnd(parsed.stopReason, parsed.usage);
    assert.deepEqual(op.op === 'append' && op.item.kind === 'turn_end' && op.item.usage, parsed.usage);
  });

  it('compaction_update patches: omitted keeps summary and error, null clears them', () => {
    const s = new TranscriptState('s');
    const summary = [{ type: 'text', text: 'Summary so far' }];
    s.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', summary, error: 'too big' }));
    s.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress' }));
    let item = s.transcript.items[0];
    assert.ok(item.kind === 'compaction');
    assert.deepEqual([item.status, item.summary.length, item.error], ['in_progress', 1, 'too big']);
    s.apply(u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: null, error: null }));
    item = s.transcript.items[0];
    assert.ok(item.kind === 'compaction');
    assert.deepEqual([item.status, item.summary, 'error' in item], ['completed', [], false]);
    assert.equal(s.transcript.items.length, 1, 'one item, patched in place');
  });

  it('session_message / session_message_chunk: one message per messageId, chunks appended, fields patched', () => {
    const s = new TranscriptState('s');
    s.apply(u({ sessionUpdate: 'session_message_chunk', messageId: 'm1', content: { type: 'text', text: 'Hello ' } }));
    s.apply(u({ sessionUpdate: 'session_message', messageId: 'm1', senderSessionId: 'other' }));
    s.apply(u({ sessionUpdate: 'session_message_chunk', messageId: 'm1', content: { type: 'text', text: 'there' } }));
    assert.deepEqual(s.transcript.items.map((i) => i.kind), ['session_message']);
    const m = s.transcript.items[0];
    assert.ok(m.kind === 'session_message');
    assert.deepEqual([m.senderSessionId, m.content], ['other', [{ type: 'text', text: 'Hello there' }]]);
    s.apply(u({ sessionUpdate: 'session_message', messageId: 'm1', senderSessionId: null, content: null }));
    const cleared = s.transcript.items[0];
    assert.ok(cleared.kind === 'session_message');
    assert.deepEqual([cleared.senderSessionId, cleared.content], [undefined, []]);
  });

  it('bounds a tool call output to its last MAX_TOOL_OUTPUT characters', () => {
    const s = new TranscriptState('s');
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'yes', kind: 'execute' }));
    const line = 'y\n'.repeat(50_000);
    for (let i = 0; i < 3; i++) s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', _meta: { terminal_output: { terminal_id: 't', data: line } } }));
    const call = s.transcript.items[0];
    assert.ok(call.kind === 'tool_call' && call.output);
    assert.equal(call.output.text.length, MAX_TOOL_OUTPUT);
    assert.equal(call.output.truncated, true);
  });

  it('never mutates an item it already returned', () => {
    const s = new TranscriptState('s');
    const first = s.apply(chunk('agent_message_chunk', 'a'));
    const frozen = JSON.stringify(first);
    const second = s.apply(chunk('agent_message_chunk', 'b'));
    assert.notEqual(first, second);
    assert.equal(JSON.stringify(first), frozen);
    const call = s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', content: [{ type: 'diff', path: '/a', newText: 'n' }] }));
    const callJson = JSON.stringify(call);
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
    assert.equal(JSON.stringify(call), callJson);
  });

  it('creates a tool call from an update that arrives first; null fields leave values alone', () => {
    const s = new TranscriptState('s');
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'in_progress', title: 'Late' }));
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', title: null, content: null, kind: 'read', status: 'weird' }));
    const [item] = s.transcript.items as Array<Record<string, unknown>>;
    assert.equal(item.title, 'Late');
    assert.equal(item.status, 'in_progress');
    assert.equal(item.toolKind, 'read');
    assert.deepEqual(item.content, []);
  });

  it('clears the title on null, removes plans by id, keeps later ids unique', () => {
    const s = new TranscriptState('s');
    s.apply(u({ sessionUpdate: 'session_info_update', title: 'T' }));
    s.apply(u({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p', uri: 'file:///plan.md' } }));
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'after' }));
    s.apply(u({ sessionUpdate: 'plan_removed', planId: 'p' }));
    s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'completed' }));
    s.apply(u({ sessionUpdate: 'session_info_update', title: null }));
    assert.equal(s.transcript.title, undefined);
    assert.deepEqual(s.transcript.items.map((i) => [i.kind, i.id]), [['tool_call', 'i2']]);
    assert.equal((s.transcript.items[0] as { status: string }).status, 'completed', 'indexes survive a removal');
    s.apply(u({ sessionUpdate: 'notice', severity: 'info', title: 'n' }));
    assert.equal(s.transcript.items[1].id, 'i3');
  });

  it('keeps broken known variants and unknown variants as unsupported, with the reason', () => {
    const broken = u({ sessionUpdate: 'tool_call', title: 'no id' });
    assert.equal(broken.sessionUpdate, '$unsupported');
    assert.match((broken as { reason: string }).reason, /toolCallId/);
    const unknown = u({ sessionUpdate: 'hologram', x: 1 });
    assert.deepEqual(unknown, { sessionUpdate: '$unsupported', updateType: 'hologram', raw: { sessionUpdate: 'hologram', x: 1 }, reason: 'unknown session update "hologram"' });
    const s = new TranscriptState('s');
    s.apply(broken);
    s.apply(unknown);
    assert.deepEqual(s.transcript.items.map((i) => i.kind), ['unsupported', 'unsupported']);
  });

  it('the pure reducer gives the same result as the stateful one and leaves its input alone', () => {
    const updates = [
      chunk('user_message_chunk', 'hi'),
      chunk('agent_message_chunk', 'he', 'm'),
      chunk('agent_message_chunk', 'llo', 'm'),
      u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x', kind: 'edit' }),
      u({ sessionUpdate: 'tool_call_update', toolCallId: 't', locations: [{ path: '/a', line: 2 }] }),
      u({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] }),
      u({ sessionUpdate: 'plan', entries: [] }),
      u({ sessionUpdate: 'usage_update', used: 1, size: 2 }),
      u({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'x', description: 'd' }, { bad: true }] }),
    ];
    let pure: Transcript = emptyTranscript('s');
    const snapshots: string[] = [];
    for (const update of updates) {
      snapshots.push(JSON.stringify(pure));
      const before = pure;
      pure = reduceTranscript(pure, update);
      assert.equal(JSON.stringify(before), snapshots.at(-1), 'input transcript unchanged');
    }
    pure = recordTurnEnd(pure, 'end_turn');
    const state = new TranscriptState('s');
    for (const update of updates) state.apply(update);
    state.recordTurnEnd('end_turn');
    assert.deepEqual(pure, state.transcript);
    assert.equal(pure.items.filter((i) => i.kind === 'plan').length, 1);
    assert.deepEqual(pure.commands, [{ name: 'x', description: 'd' }]);
  });

  it('flags end_turn as empty only when the agent produced nothing since the prompt', () => {
    const s = new TranscriptState('s');
    s.recordUserPrompt([{ type: 'text', text: 'q' }]);
    assert.equal(emptyTurnEnd(s.recordTurnEnd('end_turn')), true);
    s.recordUserPrompt([{ type: 'text', text: 'q2' }]);
    s.apply(chunk('agent_thought_chunk', 'hmm'));
    assert.equal(emptyTurnEnd(s.recordTurnEnd('end_turn')), false);
    s.recordUserPrompt([{ type: 'text', text: 'q3' }]);
    assert.equal(emptyTurnEnd(s.recordTurnEnd('refusal')), false);
  });

  it('ends the turn\'s tool calls the agent left pending or in progress as unfinished, with the ops a copy applies', () => {
    const s = new TranscriptState('s');
    let copy: Transcript = structuredClone(s.transcript);
    const step = (ops: TranscriptOp[]) => (copy = applyTranscriptOps(copy, ops));
    step(s.recordUserPrompt([{ type: 'text', text: 'first' }]));
    step(s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'old', title: 'Earlier turn', status: 'in_progress' })));
    step(s.recordTurnEnd('end_turn'));
    step(s.recordUserPrompt([{ type: 'text', text: 'second' }]));
    step(s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', kind: 'execute', status: 'in_progress' })));
    step(s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'wait', title: 'Wait', status: 'pending' })));
    step(s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'done', title: 'Done', status: 'in_progress' })));
    step(s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'done', status: 'completed' })));
    const ops = s.recordTurnEnd('cancelled');
    step(ops);
    assert.deepEqual(ops.map((o) => o.op), ['replace', 'replace', 'append'], 'the two open calls, in order, then the turn end');
    const call = (id: string) => s.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === id) as { status: string; unfinished?: string };
    assert.equal(call('run').unfinished, 'cancelled');
    assert.equal(call('run').status, 'in_progress', 'the agent\'s own status is kept');
    assert.equal(call('wait').unfinished, 'cancelled');
    assert.equal(call('done').unfinished, undefined);
    assert.equal(call('old').unfinished, 'end_turn', 'marked when its own turn ended, not again');
    // A result that arrives after the turn ended is shown as it is.
    step(s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 'run', status: 'completed' })));
    assert.equal(call('run').status, 'completed');
    assert.equal(call('run').unfinished, undefined);
    assert.deepEqual(copy, s.transcript);
  });

  it('at the end of a load replay, every replayed call left pending or in progress is unfinished, in every turn', () => {
    const s = new TranscriptState('s');
    s.recordUserPrompt([{ type: 'text', text: 'one' }]);
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' }));
    s.recordUserPrompt([{ type: 'text', text: 'two' }]);
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'pending' }));
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'C', status: 'failed' }));
    const ops = s.recordReplayEnd();
    assert.deepEqual(ops.map((o) => o.op === 'replace' && o.item.kind === 'tool_call' && o.item.toolCallId), ['a', 'b']);
    const calls = s.transcript.items.filter((i) => i.kind === 'tool_call') as Array<{ unfinished?: string }>;
    assert.deepEqual(calls.map((c) => c.unfinished), ['end_turn', 'end_turn', undefined]);
    assert.deepEqual(s.recordReplayEnd(), [], 'twice: nothing more');
  });

  it('a turn that stopped without a turn end (failed, crashed) leaves none of its calls running; after a turn end it changes nothing', () => {
    const s = new TranscriptState('s');
    s.recordUserPrompt([{ type: 'text', text: 'one' }]);
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', status: 'in_progress' }));
    s.recordTurnEnd('end_turn');
    assert.deepEqual(s.recordTurnStopped(), [], 'the turn end already ended it');
    s.recordUserPrompt([{ type: 'text', text: 'two' }]);
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', status: 'in_progress' }));
    s.recordError('the agent crashed');
    const ops = s.recordTurnStopped();
    assert.equal(ops.length, 1);
    const b = s.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'b') as { unfinished?: string };
    assert.equal(b.unfinished, 'error');
  });

  it('resumes from a persisted transcript with working indexes', () => {
    const s = new TranscriptState('s');
    s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'x' }));
    s.apply(chunk('agent_message_chunk', 'a', 'm'));
    const restored = new TranscriptState(JSON.parse(JSON.stringify(s.transcript)) as Transcript);
    restored.apply(chunk('agent_message_chunk', 'b', 'm'));
    restored.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'failed' }));
    restored.apply(chunk('agent_thought_chunk', 'new'));
    assert.deepEqual(restored.transcript.items.map((i) => i.id), ['i1', 'i2', 'i3']);
    assert.equal((restored.transcript.items[0] as { status: string }).status, 'failed');
  });

  it('returns the ops it applied: the same ops on a copy give the same transcript', () => {
    const s = new TranscriptState('s');
    let copy: Transcript = structuredClone(s.transcript);
    const step = (ops: TranscriptOp[]) => (copy = applyTranscriptOps(copy, ops));
    step(s.recordUserPrompt([{ type: 'text', text: 'q' }]));
    step(s.apply(chunk('agent_message_chunk', 'a', 'm')));
    step(s.apply(chunk('agent_message_chunk', 'b', 'm')));
    step(s.apply(u({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'image', mimeType: 'image/png', data: 'AA==' } })));
    step(s.apply(chunk('agent_message_chunk', 'c', 'm')));
    step(s.apply(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', kind: 'edit', status: 'pending' })));
    step(s.apply(u({ sessionUpdate: 'plan_update', plan: { planId: 'p', type: 'items', entries: [] } })));
    step(s.apply(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' })));
    step(s.apply(u({ sessionUpdate: 'plan_removed', planId: 'p' })));
    step(s.apply(u({ sessionUpdate: 'session_info_update', title: 'T' })));
    step(s.apply(u({ sessionUpdate: 'usage_update', used: 1, size: 10 })));
    step(s.apply(u({ sessionUpdate: 'session_info_update', title: null })));
    step(s.applySessionSetup({ modes: { currentModeId: 'a', availableModes: [] } } as Parameters<TranscriptState['applySessionSetup']>[0]));
    step(s.setMode('b'));
    step(s.recordTurnEnd('end_turn'));
    assert.deepEqual(copy, s.transcript);
  });
});
