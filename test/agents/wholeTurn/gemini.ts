// Gemini CLI's row of the whole-turn table (../wholeTurn.table.ts).
// Gemini CLI (`gemini --acp`): read_file reads the disk itself (no fs/read_text_file) and its call carries
// no content; an edit is announced only inside session/request_permission, its diff read through
// fs/read_text_file before asking and again after, then written with fs/write_text_file; a writing shell
// command asks too, and its output reaches only the model. A router classifier (side request) runs once a
// prompt. write_file of a NEW file fails before asking in 0.61, so only existing files are edited.
import * as assert from 'assert';
import * as path from 'path';
import { TranscriptState } from '../../../src/acp';
import type { LoggedRequest } from '../../fixtures/modelEndpoint/endpoint';
import { GeminiApi } from '../../fixtures/modelEndpoint/gemini';
import { geminiRecipe } from '../../fixtures/realAgents/gemini';
import type { WholeTurnRow } from './row';
import { geminiShape } from './updates';

const GEMINI_OPTIONS = [
  ['proceed_always', 'Allow for this session', 'allow_always'],
  ['proceed_once', 'Allow', 'allow_once'],
  ['cancel', 'Reject', 'reject_once'],
] as const;

/** The last content of a Gemini main request: the functionResponse the agent sends back to the model. */
function functionResponse(request: LoggedRequest): { name: string; response: { output: string } } {
  const contents = (request.body as { contents: Array<{ parts: Array<{ functionResponse?: { name: string; response: { output: string } } }> }> }).contents;
  const found = contents[contents.length - 1].parts.find((p) => p.functionResponse)?.functionResponse;
  assert.ok(found, `no functionResponse in ${request.path}`);
  return found;
}

export const geminiRow: WholeTurnRow = {
  recipe: geminiRecipe,
  handlers: () => [new GeminiApi()],
  title: 'thought, text, a read from disk, an edit and a shell command behind permission, the answer',
  files: { 'notes.txt': 'alpha\nbeta\n', 'src/app.ts': "export const greeting = 'hello';\n" },
  script: (cwd) => [
    // A relative path: the endpoint resolves it against the workspace Gemini names in its context.
    { thought: '**Planning the change**\nRead the notes, then edit.', text: 'Let me look at the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
    { text: 'Now the edit.', tools: [{ edit: { path: path.join(cwd, 'src', 'app.ts'), oldText: "'hello'", newText: "'hello, world'" } }] },
    { tools: [{ shell: { command: 'echo shell-ran | tee shell.txt' } }] },
    { text: 'All done: the greeting now says hello, world.' },
  ],
  prompt: 'Update the greeting',
  expect: {
    text: 'Let me look at the notes first.Now the edit.All done: the greeting now says hello, world.',
    files: { 'src/app.ts': "export const greeting = 'hello, world';\n", 'shell.txt': 'shell-ran\n', 'notes.txt': 'alpha\nbeta\n' },
    toolCalls: 3,
    everyCallAnnounced: false,
    asks: ['edit', 'execute'],
    askTitles: ["src/app.ts: 'hello' => 'hello, world'", 'echo shell-ran | tee shell.txt'],
    options: GEMINI_OPTIONS,
    fsCalls: [['fs/read_text_file', 'src/app.ts'], ['fs/read_text_file', 'src/app.ts'], ['fs/write_text_file', 'src/app.ts']],
  },
  more: ({ c, updates, session, fsCallsAtPermission }) => {
    const notes = path.join(c.cwd, 'notes.txt');
    const app = path.join(c.cwd, 'src', 'app.ts');
    assert.deepStrictEqual(geminiShape(updates), [
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call:read_file:in_progress',
      'tool_call_update:read_file:completed',
      'agent_message_chunk',
      'tool_call_update:replace:completed',
      'tool_call_update:run_shell_command:completed',
      'agent_message_chunk',
    ], c.diagnostics());
    // Gemini renders a thought summary as "**Subject**\nDescription" again.
    const thought = updates.find((u) => u.sessionUpdate === 'agent_thought_chunk');
    assert.deepStrictEqual(thought && 'content' in thought ? thought.content : undefined, { type: 'text', text: '**Planning the change**\nRead the notes, then edit.' });
    // The read: titled by the file, with its location and no content.
    const read = updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update').filter((u) => u.toolCallId.startsWith('read_file__'));
    assert.deepStrictEqual(read.map((u) => [u.title, u.kind, u.status, u.content, u.locations]), [
      ['notes.txt', 'read', 'in_progress', [], [{ path: notes }]],
      ['notes.txt', 'read', 'completed', [], [{ path: notes }]],
    ]);
    // The edit: only inside the permission request, then a completed update with the same diff (without _meta).
    const diff = { type: 'diff', path: app, oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" };
    const [editAsk, shellAsk] = c.permissionRequests;
    assert.match(editAsk.toolCall.toolCallId, /^replace__replace_\d+_0$/);
    assert.deepStrictEqual({ ...editAsk.toolCall, toolCallId: 'id' }, {
      toolCallId: 'id',
      status: 'pending',
      title: "src/app.ts: 'hello' => 'hello, world'",
      content: [{ ...diff, _meta: { kind: 'modify' } }],
      locations: [{ path: app }],
      kind: 'edit',
    });
    const edited = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === editAsk.toolCall.toolCallId);
    assert.deepStrictEqual(edited && edited.sessionUpdate === 'tool_call_update' ? [edited.status, edited.title, edited.content] : undefined, ['completed', "src/app.ts: 'hello' => 'hello, world'", [diff]]);
    assert.strictEqual(c.fsCalls[2].content, "export const greeting = 'hello, world';\n");
    assert.deepStrictEqual(fsCallsAtPermission, [1, 3], 'one read for the diff before asking, the re-read and the write after');
    // The shell command: asked with the command as title, then completed with no output for the client.
    assert.deepStrictEqual(shellAsk.options.map((o) => [o.optionId, o.name, o.kind]), GEMINI_OPTIONS);
    assert.deepStrictEqual({ ...shellAsk.toolCall, toolCallId: 'id' }, {
      toolCallId: 'id',
      status: 'pending',
      title: 'echo shell-ran | tee shell.txt',
      content: [{ type: 'content', content: { type: 'text', text: `[current working directory ${c.cwd}] (Runs echo.)` } }],
      locations: [],
      kind: 'execute',
    });
    const ran = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === shellAsk.toolCall.toolCallId);
    assert.deepStrictEqual(ran && ran.sessionUpdate === 'tool_call_update' ? [ran.status, ran.content] : undefined, ['completed', []]);
    // The endpoint: one router classifier, then four main requests carrying each tool's result back.
    const side = c.endpoint.requests.filter((r) => r.kind === 'side');
    assert.deepStrictEqual(side.map((r) => r.path), ['/v1beta/models/gemini-3.5-flash-lite:generateContent'], c.endpoint.describeLog());
    assert.match(JSON.stringify(side[0].body), /complexity_score/);
    const main = c.endpoint.mainRequests();
    assert.ok(main.every((r) => /^\/v1beta\/models\/[\w.-]+:streamGenerateContent\?alt=sse$/.test(r.path)));
    const readBack = functionResponse(main[1]);
    assert.deepStrictEqual([readBack.name, readBack.response], ['read_file', { output: 'alpha\nbeta\n' }], 'the disk content');
    assert.match(functionResponse(main[2]).response.output, /^Successfully modified file: .*app\.ts \(1 replacements\)/);
    assert.strictEqual(typeof functionResponse(main[3]).response.output, 'string', 'the model, not the client, gets the output');
    // Switchboard's reducer makes three finished tool cards of it.
    const transcript = new TranscriptState(session.sessionId);
    for (const u of updates) transcript.apply(u);
    const tools = transcript.transcript.items.flatMap((i) => (i.kind === 'tool_call' ? [[i.toolKind, i.status, i.title]] : []));
    assert.deepStrictEqual(tools, [
      ['read', 'completed', 'notes.txt'],
      ['edit', 'completed', "src/app.ts: 'hello' => 'hello, world'"],
      ['execute', 'completed', 'echo shell-ran | tee shell.txt'],
    ]);
  },
};
