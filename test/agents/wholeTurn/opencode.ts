// OpenCode's row of the whole-turn table (../wholeTurn.table.ts).
// OpenCode (`opencode acp`): an available_commands_update after the prompt; each tool call `tool_call`
// (pending, title the tool name, rawInput {}), at once in_progress with locations and rawInput, then a
// permission request for EVERY tool, reads included (for edits the title is the absolute path, rawInput
// {filepath, diff}, content a diff), then completed with the path (without its leading "/") as title, text
// content and rawOutput {output, metadata}. Reads never go through fs/*; edits and new files are sent as
// fs/write_text_file (and written by OpenCode itself too: opencode.test.ts). The title comes from a side
// request and is not sent over ACP.
import * as assert from 'assert';
import * as path from 'path';
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { OPENCODE_LOGIN_METHOD, opencodeRecipe } from '../../fixtures/realAgents/opencode';
import { chatScript, LINES, LINES_EDITED } from './chatScript';
import type { Json, ToolUpdate, WholeTurnRow } from './row';
import { updatesOf } from './updates';

export const opencodeRow: WholeTurnRow = {
  recipe: opencodeRecipe,
  handlers: () => [openaiChat],
  title: 'streams text, reads, edits and creates files with permission, and reports a shell command',
  files: { 'notes.txt': LINES },
  script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi && ls', editOld: 'line two', editNew: 'line 2', done: 'All done: the shell said shell-says-hi.' }),
  prompt: 'Fix the notes',
  expect: {
    authMethods: [OPENCODE_LOGIN_METHOD],
    text: 'Let me read the notes first.Now the edit.All done: the shell said shell-says-hi.',
    files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' },
    toolCalls: 4,
    announced: [['read', 'read', 'pending'], ['edit', 'edit', 'pending'], ['write', 'edit', 'pending'], ['bash', 'execute', 'pending']],
    asks: ['read', 'edit', 'edit', 'execute'],
    askCalls: [0, 1, 2, 3],
    options: [['once', 'Allow once', 'allow_once'], ['always', 'Always allow', 'allow_always'], ['reject', 'Reject', 'reject_once']],
    fsCalls: [['fs/write_text_file', 'notes.txt'], ['fs/write_text_file', 'added.txt']],
  },
  more: ({ c }) => {
    const notes = path.join(c.cwd, 'notes.txt');
    const added = path.join(c.cwd, 'added.txt');
    assert.strictEqual(c.updatesOf('available_commands_update').length, 1);
    const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    const [read, edit, write, shell] = calls.map((call) => updatesOf(c, call.toolCallId));
    for (const updates of [read, edit, write, shell]) {
      assert.strictEqual(updates[0].status, 'in_progress');
      assert.strictEqual(updates[updates.length - 1].status, 'completed');
    }
    assert.deepStrictEqual(read[0].rawInput, { filePath: notes });
    const readDone = read[read.length - 1];
    assert.strictEqual(readDone.title, notes.slice(1), 'the completed title is the path without its leading /');
    assert.strictEqual(readDone.content?.[0].content?.text, LINES.trimEnd());
    const readOutput = (readDone.rawOutput as { output?: string } | undefined)?.output ?? '';
    assert.match(readOutput, /<content>\n1: line one\n2: line two\n3: line three/);
    const editDone = edit[edit.length - 1];
    assert.deepStrictEqual(editDone.content?.map((x) => [x.type, x.content?.text ?? x.path]), [['content', 'Edit applied successfully.'], ['diff', notes]]);
    assert.deepStrictEqual(editDone.content?.[1], { type: 'diff', path: notes, oldText: 'line two', newText: 'line 2' }, 'the diff is the edit, not the whole file');
    assert.strictEqual(write[write.length - 1].content?.[0].content?.text, 'Wrote file successfully.');
    assert.deepStrictEqual(shell.map((u) => u.title), Array(shell.length).fill('echo shell-says-hi && ls'));
    const shellDone = shell[shell.length - 1];
    const shellRaw = shellDone.rawOutput as { output?: string; metadata?: Json } | undefined;
    // What the command printed is OpenCode's own capture: the same text as content and in rawOutput.
    assert.strictEqual(typeof shellRaw?.output, 'string');
    assert.strictEqual(shellDone.content?.[0].content?.text, shellRaw?.output);
    assert.strictEqual(shellRaw?.metadata?.exit, 0);
    assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.title), ['read', notes, added, 'echo shell-says-hi && ls']);
    const editAsk = c.permissionRequests[1].toolCall;
    assert.deepStrictEqual(Object.keys(editAsk.rawInput as object), ['filepath', 'diff']);
    assert.deepStrictEqual(editAsk.content, [{ type: 'diff', path: notes, oldText: LINES, newText: LINES_EDITED }]);
    assert.deepStrictEqual(c.fsCalls.map((f) => f.content), [LINES_EDITED, 'brand new\n']);
    const side = c.endpoint.requests.filter((r) => r.kind === 'side');
    assert.ok(side.length >= 1 && side.every((r) => /title generator/.test(JSON.stringify(r.body))), c.endpoint.describeLog());
    assert.ok(c.endpoint.requests.every((r) => r.api === 'openai-chat'), c.endpoint.describeLog());
    const lastMessages = (c.endpoint.mainRequests()[4].body as { messages: Array<{ role: string }> }).messages;
    assert.ok(lastMessages.some((m) => m.role === 'tool'), 'the shell result goes back to the model');
  },
};
