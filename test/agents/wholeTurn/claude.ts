// Claude Agent's row of the whole-turn table (../wholeTurn.table.ts).
// Claude Agent (claude-agent-acp, running the Claude Code CLI): a side request names the session
// (session_info_update); thinking streams as agent_thought_chunk; each tool call is announced pending while
// streamed (title "Read File" / "Edit" / "Terminal", rawInput {}; or already with its real title when the
// input arrived whole before the announcement, seen under load), then titled with its rawInput, then
// completed with content and rawOutput. It reads, writes and runs the shell itself (no fs/*, no terminal/*);
// in mode "default" it asks for the edit and a writing command (not for a read-only one). A usage_update
// follows each model response, the last with the cost.
import * as assert from 'assert';
import * as path from 'path';
import { AnthropicApi, SIDE_TITLE } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { pinned } from '../../fixtures/realAgents/recipe';
import type { ToolUpdate, WholeTurnRow } from './row';
import { updatesOf } from './updates';

const CLAUDE_SHELL = 'echo shell-says-hi > shell.txt && cat shell.txt';

export const claudeRow: WholeTurnRow = {
  recipe: claudeRecipe,
  handlers: () => [new AnthropicApi()],
  title: 'streams a thought and text, reads, edits and runs a shell command with permission, and ends the turn',
  files: { 'notes.txt': 'alpha\nbeta\ngamma\n' },
  script: (cwd) => [
    // A relative path: the endpoint resolves it against the cwd in the agent's environment block.
    { thought: 'The notes need one word changed.', text: 'Let me read the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
    { text: 'Now the edit.', tools: [{ edit: { path: path.join(cwd, 'notes.txt'), oldText: 'beta', newText: 'BETA' } }] },
    { text: 'And a command.', tools: [{ shell: { command: CLAUDE_SHELL } }] },
    { text: 'All done: the shell said shell-says-hi.' },
  ],
  prompt: 'Change beta to BETA in notes.txt, then run a command',
  expect: {
    version: pinned('claude').version,
    modeId: 'default',
    text: 'Let me read the notes first.Now the edit.And a command.All done: the shell said shell-says-hi.',
    thought: 'The notes need one word changed.',
    files: { 'notes.txt': 'alpha\nBETA\ngamma\n', 'shell.txt': 'shell-says-hi\n' },
    toolCalls: 3,
    announced: [
      [['Read File', 'Read notes.txt'], 'read', 'pending'],
      [['Edit', 'Edit notes.txt'], 'edit', 'pending'],
      [['Terminal', CLAUDE_SHELL], 'execute', 'pending'],
    ],
    asks: ['edit', 'execute'],
    askTitles: ['Edit notes.txt', CLAUDE_SHELL],
    askCalls: [1, 2],
    options: [
      ['allow-once', 'Yes', 'allow_once'],
      ['allow-with-updates', 'Yes, allow all edits during this session', 'allow_always'],
      ['reject', 'No', 'reject_once'],
    ],
    fsCalls: [],
  },
  more: ({ c }) => {
    const notes = path.join(c.cwd, 'notes.txt');
    assert.deepStrictEqual(c.updatesOf('session_info_update').map((u) => ('title' in u ? u.title : undefined)), [SIDE_TITLE], 'the title comes from the side request');
    const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    const [read, edit, shell] = calls.map((call) => updatesOf(c, call.toolCallId));
    for (const updates of [read, edit, shell]) assert.strictEqual(updates[updates.length - 1].status, 'completed');
    assert.deepStrictEqual([read[0].title, read[0].rawInput], ['Read notes.txt', { file_path: notes }]);
    assert.strictEqual(read[read.length - 1].content?.[0].content?.text, '```\n1\talpha\n2\tbeta\n3\tgamma\n```');
    assert.deepStrictEqual([edit[0].title, edit[0].rawInput], ['Edit notes.txt', { replace_all: false, file_path: notes, old_string: 'beta', new_string: 'BETA' }]);
    assert.deepStrictEqual(edit[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', notes, 'beta', 'BETA']]);
    assert.ok(edit.some((u) => u.content?.some((x) => x.type === 'diff' && x.newText === 'alpha\nBETA\ngamma')), 'after the write, the diff in context');
    assert.deepStrictEqual([shell[0].title, shell[0].rawInput], [CLAUDE_SHELL, { command: CLAUDE_SHELL, description: 'Run echo' }]);
    const shellDone = shell[shell.length - 1];
    // What the command printed is Claude Code's own capture: the same text in rawOutput and as a console block.
    assert.strictEqual(typeof shellDone.rawOutput, 'string');
    assert.strictEqual(shellDone.content?.[0].content?.text, `\`\`\`console\n${String(shellDone.rawOutput)}\n\`\`\``);
    assert.deepStrictEqual(c.permissionRequests[1].options.map((o) => o.optionId), ['allow-once', 'allow-with-updates', 'reject']);
    assert.match(c.permissionRequests[1].options[1].name, /^Yes, and allow access to switchboard-claude-project-\w+\/ and echo shell-says-hi \* commands$/);
    const usage = c.updatesOf('usage_update') as unknown as Array<{ cost?: { currency: string } }>;
    assert.ok(usage.length >= 4, `usage updates: ${usage.length}`);
    assert.strictEqual(usage[usage.length - 1].cost?.currency, 'USD');
    // All through /v1/messages?beta=true; side requests for the title (and, once the turn has ended, the
    // prompt suggestion, which may not have arrived yet).
    const main = c.endpoint.mainRequests();
    assert.ok(c.endpoint.requests.every((r) => r.api === 'anthropic' && r.path === '/v1/messages?beta=true' && r.status === undefined), c.endpoint.describeLog());
    const side = c.endpoint.requests.filter((r) => r.kind === 'side').map((r) => r.body as { output_config?: unknown });
    assert.ok(side.some((b) => /"title"/.test(JSON.stringify(b.output_config))), `a title request: ${c.endpoint.describeLog()}`);
    const toolResult = (i: number) => JSON.stringify((main[i].body as { messages: unknown[] }).messages.slice(-1));
    assert.match(toolResult(1), /tool_result.*alpha/);
    assert.match(toolResult(3), /tool_result/);
  },
};
