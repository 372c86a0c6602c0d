// A realistic agent stdout for the protocol benchmark: turns of streamed message and
// thought chunks, tool calls, and tool call updates with diffs and terminal content.
const WORDS = 'the quick brown fox jumps over a lazy dog while the agent edits src/index.ts and runs npm test again'.split(' ');

function sentence(seed: number, words: number): string {
  let s = '';
  for (let i = 0; i < words; i++) s += `${WORDS[(seed * 7 + i * 13) % WORDS.length]} `;
  return s;
}

function codeBlock(seed: number, lines: number): string {
  let s = '';
  for (let i = 0; i < lines; i++) s += `  const value${(seed + i) % 97} = compute(${i}, "${WORDS[(seed + i) % WORDS.length]}");\n`;
  return s;
}

/** `count` NDJSON session/update lines, as one Buffer. */
export function generateUpdateStream(count: number): { data: Buffer; lines: number } {
  const lines: string[] = [];
  const push = (update: unknown) => lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'bench-session', update } }));
  let turn = 0;
  while (lines.length < count) {
    turn++;
    const messageId = `msg-${turn}`;
    for (let i = 0; i < 6 && lines.length < count; i++) push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: sentence(turn + i, 6) }, messageId: `th-${turn}` });
    for (let call = 0; call < 3 && lines.length < count; call++) {
      const toolCallId = `call-${turn}-${call}`;
      const file = `/work/project/src/module${(turn + call) % 50}.ts`;
      push({ sessionUpdate: 'tool_call', toolCallId, title: `Edit ${file}`, kind: call === 2 ? 'execute' : 'edit', status: 'pending', locations: [{ path: file, line: 10 + call }], rawInput: { path: file } });
      push({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
      if (call === 2) {
        push({ sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'terminal', terminalId: `term-${turn}` }] });
      } else {
        push({
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: 'completed',
          content: [{ type: 'diff', path: file, oldText: codeBlock(turn + call, 12), newText: codeBlock(turn + call + 1, 14) }],
        });
      }
      for (let i = 0; i < 8 && lines.length < count; i++) push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sentence(turn * 3 + i, 7) }, messageId });
    }
    for (let i = 0; i < 20 && lines.length < count; i++) push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sentence(turn + i, 8) }, messageId });
  }
  lines.length = count;
  return { data: Buffer.from(`${lines.join('\n')}\n`, 'utf8'), lines: count };
}
