// One transcript item of every kind (messages, a thought, tool calls with each content type, a plan, a
// notice, a compaction, an unsupported update, an error, each stop reason): what the rendering tests and the
// accessible-name sweep mount.
import type { TranscriptItem } from '../../../src/shared/transcript';

export const ALL_ITEMS: TranscriptItem[] = [
  { kind: 'user_message', id: 'u1', content: [{ type: 'text', text: 'Please fix the bug' }] },
  { kind: 'thought', id: 'th1', content: [{ type: 'text', text: 'Let me think about it' }] },
  { kind: 'agent_message', id: 'a1', content: [{ type: 'text', text: 'Here is **the** fix:\n\n```ts\nconst x = 1;\n```\n\nSee [docs](https://example.com) or [evil](command:workbench.action.quit).' }] },
  {
    kind: 'tool_call', id: 't1', toolCallId: 'tc1', title: 'Edit src/app.ts', toolKind: 'edit', status: 'completed',
    locations: [{ path: '/ws/src/app.ts', line: 3 }],
    content: [
      { type: 'diff', path: '/ws/src/app.ts', oldText: 'a\nb\nc', newText: 'a\nB\nc' },
      { type: 'content', content: { type: 'text', text: 'edited' } },
      { type: 'content', content: { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'content', content: { type: 'resource_link', uri: 'file:///ws/README.md', name: 'README.md' } },
    ],
  },
  {
    kind: 'tool_call', id: 't2', toolCallId: 'tc2', title: 'Run npm test', toolKind: 'execute', status: 'in_progress',
    locations: [], content: [{ type: 'terminal', terminalId: 'term1' }], rawInput: { command: 'npm test' },
  },
  { kind: 'plan', id: 'p1', entries: [
    { content: 'Write the test', priority: 'high', status: 'completed' },
    { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
  ] },
  { kind: 'notice', id: 'n1', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5s' },
  { kind: 'compaction', id: 'c1', compactionId: 'cc', status: 'completed', summary: [{ type: 'text', text: 'Summary of the chat' }] },
  { kind: 'unsupported', id: 'x1', updateType: 'future_thing', raw: { sessionUpdate: 'future_thing', secret: 42 } },
  { kind: 'error', id: 'e1', message: 'Prompt failed', detail: 'stack...' },
  { kind: 'turn_end', id: 'te1', stopReason: 'max_tokens', empty: false },
  { kind: 'turn_end', id: 'te2', stopReason: 'end_turn', empty: true },
  { kind: 'turn_end', id: 'te3', stopReason: 'refusal', empty: false },
  { kind: 'turn_end', id: 'te4', stopReason: 'cancelled', empty: false },
];
