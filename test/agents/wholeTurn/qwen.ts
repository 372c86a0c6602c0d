// Qwen Code's row of the whole-turn table (../wholeTurn.table.ts).
// Qwen Code (`qwen --acp`): each tool call announced pending while streamed (title "ReadFile" / "Edit" /
// "WriteFile" / "Shell", `_meta` {toolName, provenance, phase: "preparing"}), then in_progress with the real
// title and rawInput, then completed. Reads through fs/read_text_file; edits and new files ask, then
// fs/write_text_file (an edit re-reads first; edits get no in_progress update). A read-only shell command
// runs inside the agent without asking. Usage comes as `_meta.usage` on an empty agent_message_chunk after
// each model response. What a command printed is Qwen's own capture (under load it sometimes drops a
// line): only that it arrives in both places is checked.
import * as assert from 'assert';
import * as path from 'path';
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { QWEN_OPENAI_METHOD, qwenRecipe } from '../../fixtures/realAgents/qwen';
import { chatScript, LINES, LINES_EDITED } from './chatScript';
import type { Json, ToolUpdate, WholeTurnRow } from './row';
import { updatesOf } from './updates';

export const qwenRow: WholeTurnRow = {
  recipe: qwenRecipe,
  handlers: () => [openaiChat],
  title: 'streams text, reads, edits with permission, writes a new file and reports a shell command',
  files: { 'notes.txt': LINES },
  script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two', editNew: 'line 2', done: 'All done: the shell said shell-says-hi.' }),
  prompt: 'Fix the notes',
  expect: {
    authMethods: [QWEN_OPENAI_METHOD],
    modeId: 'default',
    text: 'Let me read the notes first.Now the edit.All done: the shell said shell-says-hi.',
    files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' },
    toolCalls: 4,
    announced: [['ReadFile', 'read', 'pending'], ['Edit', 'edit', 'pending'], ['WriteFile', 'edit', 'pending'], ['Shell', 'execute', 'pending']],
    asks: ['edit', 'edit'],
    askTitles: ['notes.txt', 'Writing to added.txt'],
    askCalls: [1, 2],
    options: [['proceed_always', 'Allow All Edits', 'allow_always'], ['proceed_once', 'Allow', 'allow_once'], ['cancel', 'Reject', 'reject_once']],
    fsCalls: [
      ['fs/read_text_file', 'notes.txt'],
      ['fs/read_text_file', 'notes.txt'],
      ['fs/read_text_file', 'notes.txt'],
      ['fs/write_text_file', 'notes.txt'],
      ['fs/write_text_file', 'added.txt'],
    ],
  },
  more: ({ c }) => {
    const notes = path.join(c.cwd, 'notes.txt');
    const added = path.join(c.cwd, 'added.txt');
    const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    for (const call of calls) assert.deepStrictEqual(call._meta, { toolName: call._meta?.toolName, provenance: 'builtin', phase: 'preparing' });
    const [read, edit, write, shell] = calls.map((call) => updatesOf(c, call.toolCallId));
    for (const updates of [read, edit, write, shell]) assert.strictEqual(updates[updates.length - 1].status, 'completed');
    assert.deepStrictEqual(read.map((u) => [u.status, u.title]), [['in_progress', 'ReadFile: notes.txt'], ['completed', undefined]]);
    assert.deepStrictEqual(read[0].rawInput, { file_path: notes });
    assert.strictEqual(read[1].content?.[0].content?.text, LINES);
    assert.deepStrictEqual(edit.map((u) => u.status), ['completed'], 'an edit gets no in_progress update');
    assert.deepStrictEqual(edit[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', notes, LINES, LINES_EDITED]]);
    assert.deepStrictEqual(write[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', added, '', 'brand new\n']]);
    assert.deepStrictEqual(shell.map((u) => [u.status, u.title]), [['in_progress', 'Shell: echo shell-says-hi (Runs echo shell-says-hi)'], ['completed', undefined]]);
    const shellOutput = shell[1].rawOutput && typeof shell[1].rawOutput === 'object' ? (shell[1].rawOutput as Json).output : undefined;
    assert.strictEqual(typeof shellOutput, 'string', `the output in rawOutput: ${JSON.stringify(shell[1].rawOutput)}`);
    assert.ok((shell[1].content?.[0].content?.text ?? '').includes(String(shellOutput)), 'the same output as text content');
    assert.deepStrictEqual(c.permissionRequests[0].toolCall.rawInput, { file_path: notes, old_string: 'line two', new_string: 'line 2' });
    assert.strictEqual(c.fsCalls[3].content, LINES_EDITED);
    // Switchboard's parser keeps `_meta` on tool calls only, so only the five empty usage chunks arrive here.
    const empty = c.updatesOf('agent_message_chunk').filter((u) => 'content' in u && u.content && typeof u.content === 'object' && 'text' in u.content && u.content.text === '');
    assert.strictEqual(empty.length, 5);
    assert.ok(c.endpoint.requests.every((r) => r.api === 'openai-chat'), c.endpoint.describeLog());
    const lastMessages = (c.endpoint.mainRequests()[4].body as { messages: Array<{ role: string }> }).messages;
    assert.ok(lastMessages.some((m) => m.role === 'tool'), 'the shell result goes back to the model');
  },
};
