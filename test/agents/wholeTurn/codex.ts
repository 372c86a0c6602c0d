// Codex's row of the whole-turn table (../wholeTurn.table.ts).
// Codex (codex-acp): applies patches and runs shells itself (no fs/*, no terminal/*); the edit is one
// tool_call with the whole-file diff; a shell's output reaches the client only in rawOutput (without
// `_meta.terminal_output`: codex.test.ts has that). Usage after each model response.
import * as assert from 'assert';
import * as path from 'path';
import { openaiResponses } from '../../fixtures/modelEndpoint/openaiResponses';
import { CODEX_MODEL, codex } from '../../fixtures/realAgents/codex';
import type { Json, WholeTurnRow } from './row';
import { inputItems, toolCallOf } from './updates';

const CODEX_SHELL = 'echo shell-ran > shell.txt && wc -l notes.txt';

export const codexRow: WholeTurnRow = {
  recipe: codex,
  handlers: () => [openaiResponses],
  title: 'streams text, edits a file with apply_patch after asking, runs a shell, reports its output, ends the turn',
  files: { 'notes.txt': 'alpha\nbeta\ngamma\n' },
  script: () => [
    { thought: 'The notes need a capital BETA.', text: 'I will update the notes.', tools: [{ edit: { path: 'notes.txt', oldText: 'beta', newText: 'BETA' } }] },
    { text: 'Now counting the lines.', tools: [{ shell: { command: CODEX_SHELL } }] },
    { text: 'Done: notes.txt now says BETA and has 3 lines.' },
  ],
  prompt: 'Capitalise beta in notes.txt, then count its lines',
  expect: {
    text: 'I will update the notes.Now counting the lines.Done: notes.txt now says BETA and has 3 lines.',
    thought: 'The notes need a capital BETA.',
    files: { 'notes.txt': 'alpha\nBETA\ngamma\n', 'shell.txt': 'shell-ran\n' },
    toolCalls: 2,
    asks: ['edit', 'execute'],
    askCalls: [0, 1],
    options: [['approved', 'Yes', 'allow_once'], ['abort', 'No, provide feedback', 'reject_once']],
    fsCalls: [],
  },
  more: ({ c, init, session }) => {
    const notes = path.join(c.cwd, 'notes.txt');
    assert.deepStrictEqual(init.agentInfo, { name: 'codex-acp', title: 'Codex', version: '0.16.0' });
    const model = session.configOptions?.find((o) => o.id === 'model');
    assert.strictEqual(model && 'currentValue' in model ? model.currentValue : undefined, CODEX_MODEL);
    const edit = toolCallOf(c, 'edit');
    assert.strictEqual(edit.start.title, `Edit ${notes}`);
    assert.strictEqual(edit.start.status, 'in_progress');
    assert.deepStrictEqual(edit.start.content, [{ type: 'diff', path: notes, oldText: 'alpha\nbeta\ngamma\n', newText: 'alpha\nBETA\ngamma\n' }]);
    assert.deepStrictEqual(edit.start.locations, [{ path: notes }]);
    assert.deepStrictEqual((edit.start.rawInput as Json).changes, { [notes]: { type: 'update', unified_diff: '@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n', move_path: null } });
    assert.strictEqual(edit.final.status, 'completed');
    assert.strictEqual((edit.final.rawOutput as Json).success, true);
    // The shell: title = the command, kind execute, no content; the output only in rawOutput.
    const shell = toolCallOf(c, 'execute');
    assert.strictEqual(shell.start.title, CODEX_SHELL);
    assert.strictEqual(shell.start.content, undefined, 'without _meta.terminal_output Codex sends no content when the shell starts');
    assert.deepStrictEqual((shell.start.rawInput as Json).command, ['/bin/bash', '-lc', CODEX_SHELL]);
    assert.strictEqual((shell.start.rawInput as Json).cwd, c.cwd);
    assert.strictEqual(shell.final.status, 'completed');
    const rawOutput = shell.final.rawOutput as Json;
    assert.strictEqual(rawOutput.exit_code, 0);
    // What the command printed is Codex's own capture (now and then empty, openai/codex#28207): its shape only.
    assert.strictEqual(typeof rawOutput.formatted_output, 'string');
    assert.strictEqual(typeof rawOutput.stdout, 'string');
    assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.status), ['pending', 'pending']);
    assert.deepStrictEqual(c.permissionRequests[0].options, [
      { optionId: 'approved', name: 'Yes', kind: 'allow_once' },
      { optionId: 'abort', name: 'No, provide feedback', kind: 'reject_once' },
    ]);
    assert.deepStrictEqual(c.permissionRequests[1].options.map((o) => [o.optionId, o.kind]), [
      ['approved', 'allow_once'],
      ['approved-execpolicy-amendment', 'allow_always'],
      ['abort', 'reject_once'],
    ]);
    // Usage after each model response; the context window Codex assumes for the model.
    const usage = c.updatesOf('usage_update').map((u) => u as unknown as { used: number; size: number });
    assert.strictEqual(usage.length, 3);
    assert.ok(usage.every((u) => u.used > 0 && u.size > 0));
    // The endpoint saw three turn requests and nothing else; the tool results went back to the model.
    assert.deepStrictEqual(c.endpoint.requests.map((r) => [r.method, r.path, r.api, r.kind]), Array(3).fill(['POST', '/v1/responses', 'openai-responses', 'main']));
    const [first, second, third] = c.endpoint.requests.map((r) => r.body as Json);
    assert.strictEqual(first.model, CODEX_MODEL);
    assert.strictEqual(first.stream, true);
    assert.match(String(inputItems(second, 'custom_tool_call_output')[0]?.output), /Success\. Updated the following files:\nM .*notes\.txt/);
    const shellResult = inputItems(third, 'function_call_output');
    assert.match(String(shellResult[shellResult.length - 1]?.output), /Process exited with code 0/);
  },
};
