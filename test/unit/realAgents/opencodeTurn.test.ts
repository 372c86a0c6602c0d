// The real OpenCode from npm (opencode-ai 1.18.33, `opencode acp`) does whole turns against the scripted
// Chat Completions endpoint, through Switchboard's own process and protocol layers.
//
// What it does over ACP with `permission: "ask"` (measured): an available_commands_update right after
// the prompt; text as agent_message_chunk (with messageId); each tool call as `tool_call` (pending,
// title = the tool name "read"/"edit"/"write"/"bash", rawInput {}), at once a `tool_call_update`
// in_progress with the locations and rawInput, then session/request_permission for EVERY tool, reads
// included (options once "Allow once", always "Always allow", reject "Reject"; for edits the toolCall
// title is the absolute path, rawInput {filepath, diff} and content a diff), then `completed` with the
// title the path without its leading "/", text content and rawOutput {output, metadata}. Reads never go
// through fs/read_text_file (OpenCode reads the disk itself). Edits and new files are sent as
// fs/write_text_file, but OpenCode also writes the file itself a few milliseconds later without
// waiting for the answer (the second test pins this down). The shell runs inside the agent; its output
// comes as text content on the updates. The title comes from a side request (no tools) and is not sent
// over ACP. The prompt response carries `usage` {inputTokens, outputTokens, totalTokens} (unstable
// field; Switchboard's PromptResult keeps only stopReason).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { RequestPermissionParams } from '../../../src/acp';
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { OPENCODE_LOGIN_METHOD, opencodeRecipe } from '../../fixtures/realAgents/opencode';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

/** The fields of tool_call / tool_call_update the assertions read. */
interface ToolUpdate {
  readonly sessionUpdate: string;
  readonly toolCallId: string;
  readonly title?: string;
  readonly kind?: string;
  readonly status?: string;
  readonly rawInput?: Record<string, unknown>;
  readonly rawOutput?: { output?: string; metadata?: Record<string, unknown> };
  readonly locations?: ReadonlyArray<{ path: string }>;
  readonly content?: ReadonlyArray<{ type: string; content?: { text?: string }; path?: string; oldText?: string | null; newText?: string }>;
}

const NOTES = 'line one\nline two\nline three\n';
const EDITED = 'line one\nline 2\nline three\n';

describe('OpenCode 1.18.33 (real) does a whole turn', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('streams text, reads, edits and creates files with permission, and reports a shell command', async () => {
    client = await TurnClient.start({ recipe: opencodeRecipe, handlers: [openaiChat], permissions: 'ask', files: { 'notes.txt': NOTES } });
    const c = client;
    const notes = path.join(c.cwd, 'notes.txt');
    const added = path.join(c.cwd, 'added.txt');
    c.endpoint.script([
      { text: 'Let me read the notes first.', tools: [{ read: { path: notes } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: notes, oldText: 'line two', newText: 'line 2' } }] },
      { tools: [{ write: { path: added, content: 'brand new\n' } }] },
      { tools: [{ shell: { command: 'echo shell-says-hi && ls' } }] },
      { text: 'All done: the shell said shell-says-hi.' },
    ]);
    const { init, session } = await c.openSession();
    assert.deepStrictEqual(init.authMethods?.map((m) => m.id), [OPENCODE_LOGIN_METHOD]);
    const result = await c.prompt(session.sessionId, 'Fix the notes');

    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.strictEqual(c.agentText(), 'Let me read the notes first.Now the edit.All done: the shell said shell-says-hi.');
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), EDITED);
    assert.strictEqual(fs.readFileSync(added, 'utf8'), 'brand new\n');
    assert.strictEqual(c.updatesOf('available_commands_update').length, 1);

    const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    assert.deepStrictEqual(calls.map((u) => [u.title, u.kind, u.status]), [['read', 'read', 'pending'], ['edit', 'edit', 'pending'], ['write', 'edit', 'pending'], ['bash', 'execute', 'pending']]);
    const updatesOf = (id: string) => (c.updatesOf('tool_call_update') as unknown as ToolUpdate[]).filter((u) => u.toolCallId === id);
    const [read, edit, write, shell] = calls.map((call) => updatesOf(call.toolCallId));
    for (const updates of [read, edit, write, shell]) {
      assert.strictEqual(updates[0].status, 'in_progress');
      assert.strictEqual(updates[updates.length - 1].status, 'completed');
    }
    assert.deepStrictEqual(read[0].rawInput, { filePath: notes });
    const readDone = read[read.length - 1];
    assert.strictEqual(readDone.title, notes.slice(1), 'the completed title is the path without its leading /');
    assert.strictEqual(readDone.content?.[0].content?.text, NOTES.trimEnd());
    assert.match(readDone.rawOutput?.output ?? '', /<content>\n1: line one\n2: line two\n3: line three/);
    const editDone = edit[edit.length - 1];
    assert.deepStrictEqual(editDone.content?.map((x) => [x.type, x.content?.text ?? x.path]), [['content', 'Edit applied successfully.'], ['diff', notes]]);
    assert.deepStrictEqual(editDone.content?.[1], { type: 'diff', path: notes, oldText: 'line two', newText: 'line 2' }, 'the diff is the edit, not the whole file');
    assert.strictEqual(write[write.length - 1].content?.[0].content?.text, 'Wrote file successfully.');
    assert.deepStrictEqual(shell.map((u) => u.title), Array(shell.length).fill('echo shell-says-hi && ls'));
    const shellDone = shell[shell.length - 1];
    // What the command printed is OpenCode's own capture: the same text as content and in rawOutput.
    assert.strictEqual(typeof shellDone.rawOutput?.output, 'string');
    assert.strictEqual(shellDone.content?.[0].content?.text, shellDone.rawOutput?.output);
    assert.strictEqual(shellDone.rawOutput?.metadata?.exit, 0);

    // Every tool asks, the read too; each was answered "once".
    assert.deepStrictEqual(c.permissionRequests.map((p) => [p.toolCall.toolCallId, p.toolCall.title, p.toolCall.kind]), [
      [calls[0].toolCallId, 'read', 'read'],
      [calls[1].toolCallId, notes, 'edit'],
      [calls[2].toolCallId, added, 'edit'],
      [calls[3].toolCallId, 'echo shell-says-hi && ls', 'execute'],
    ]);
    assert.deepStrictEqual(c.permissionRequests[0].options.map((o) => [o.optionId, o.name, o.kind]), [['once', 'Allow once', 'allow_once'], ['always', 'Always allow', 'allow_always'], ['reject', 'Reject', 'reject_once']]);
    const editAsk = c.permissionRequests[1].toolCall;
    assert.deepStrictEqual(Object.keys(editAsk.rawInput as object), ['filepath', 'diff']);
    assert.deepStrictEqual(editAsk.content, [{ type: 'diff', path: notes, oldText: NOTES, newText: EDITED }]);

    // No fs/read_text_file at all; both writes are also sent to the client.
    assert.deepStrictEqual(c.fsCalls.map((f) => [f.method, f.path, f.content]), [['fs/write_text_file', notes, EDITED], ['fs/write_text_file', added, 'brand new\n']]);

    // The endpoint: a title request (side, no tools) and five main requests; the shell output goes back.
    assert.strictEqual(c.endpoint.remaining, 0);
    assert.strictEqual(c.endpoint.mainRequests().length, 5, c.endpoint.describeLog());
    const side = c.endpoint.requests.filter((r) => r.kind === 'side');
    assert.ok(side.length >= 1 && side.every((r) => /title generator/.test(JSON.stringify(r.body))), c.endpoint.describeLog());
    assert.ok(c.endpoint.requests.every((r) => r.api === 'openai-chat'), c.endpoint.describeLog());
    const lastMessages = (c.endpoint.mainRequests()[4].body as { messages: Array<{ role: string; content: unknown }> }).messages;
    assert.ok(lastMessages.some((m) => m.role === 'tool'), 'the shell result goes back to the model');
  });

  it('writes edited and new files itself without waiting for its fs/write_text_file (the turn ends first)', async () => {
    // Every fs/write_text_file is held unanswered until the prompt has resolved; what happens on disk
    // and on the wire meanwhile goes into a timeline.
    const timeline: string[] = [];
    const note = (entry: string) => timeline.push(entry);
    client = await TurnClient.start({
      recipe: opencodeRecipe,
      handlers: [openaiChat],
      permissions: 'ask',
      files: { 'notes.txt': NOTES },
      choosePermission: (request: RequestPermissionParams) => {
        note(`permission ${request.toolCall.title} | ${snapshot()}`);
        return request.options.find((o) => o.kind === 'allow_once')?.optionId;
      },
    });
    const c = client;
    const notes = path.join(c.cwd, 'notes.txt');
    const added = path.join(c.cwd, 'added.txt');
    const snapshot = () => ['notes.txt', 'added.txt'].map((f) => `${f}=${fs.existsSync(path.join(c.cwd, f)) ? JSON.stringify(fs.readFileSync(path.join(c.cwd, f), 'utf8')) : 'missing'}`).join(' ');
    let releaseWrites!: () => void;
    const turnOver = new Promise<void>((resolve) => (releaseWrites = resolve));
    const answered: string[] = [];
    c.connection.handle('fs/write_text_file', async (params) => {
      note(`fs/write_text_file ${path.basename(params.path)} arrives | ${snapshot()}`);
      c.fsCalls.push({ method: 'fs/write_text_file', path: params.path, content: params.content });
      await turnOver;
      fs.writeFileSync(params.path, params.content);
      answered.push(params.path);
      return {};
    });
    c.connection.onSessionUpdate((n) => {
      const u = n.update as unknown as ToolUpdate;
      if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') note(`${u.sessionUpdate} ${u.toolCallId} ${u.status ?? ''} | ${snapshot()}`);
    });
    c.endpoint.script([
      { tools: [{ write: { path: added, content: 'brand new\n' } }] },
      { tools: [{ edit: { path: notes, oldText: 'line two', newText: 'line 2' } }] },
      { text: 'Created and edited.' },
    ]);
    const { session } = await c.openSession();
    // A safety bound, not a timing assertion: were OpenCode to wait for the answers, this releases them.
    const bound = setTimeout(() => {
      note('released by the safety bound: OpenCode waited for fs/write_text_file');
      releaseWrites();
    }, 60_000);
    let result;
    try {
      result = await c.prompt(session.sessionId, 'Create a file and edit the notes');
    } finally {
      clearTimeout(bound);
    }
    note(`prompt resolved ${result.stopReason} | ${snapshot()} | answered ${answered.length}`);
    const whenTurnEnded = { answered: answered.length, notes: fs.readFileSync(notes, 'utf8'), added: fs.existsSync(added) ? fs.readFileSync(added, 'utf8') : undefined };
    releaseWrites();
    const report = `\n${timeline.join('\n')}\n${c.diagnostics()}`;

    assert.strictEqual(result.stopReason, 'end_turn', report);
    // The turn ended with both writes still unanswered, and both files already written by OpenCode.
    assert.deepStrictEqual(whenTurnEnded, { answered: 0, notes: EDITED, added: 'brand new\n' }, report);
    assert.deepStrictEqual(c.fsCalls.map((f) => [path.basename(f.path), f.content]), [['added.txt', 'brand new\n'], ['notes.txt', EDITED]], report);
    // Order: permission (file untouched) → fs/write_text_file → … → completed (file written). OpenCode writes
    // the file and sends fs/write_text_file concurrently, so at the request the file may be either way.
    const index = (pattern: RegExp) => timeline.findIndex((e) => pattern.test(e));
    const [writeCall, editCall] = (c.updatesOf('tool_call') as unknown as ToolUpdate[]).map((u) => u.toolCallId);
    assert.match(timeline[index(/^permission .*added\.txt/)], /added\.txt=missing/, report);
    assert.match(timeline[index(/^permission .*notes\.txt/)], /notes\.txt="line one\\nline two/, report);
    assert.ok(index(/^permission .*added\.txt/) < index(/^fs\/write_text_file added\.txt/), report);
    assert.ok(index(/^fs\/write_text_file added\.txt/) < index(new RegExp(`^tool_call_update ${writeCall} completed`)), report);
    assert.match(timeline[index(new RegExp(`^tool_call_update ${writeCall} completed`))], /added\.txt="brand new\\n"/, report);
    assert.match(timeline[index(new RegExp(`^tool_call_update ${editCall} completed`))], /notes\.txt="line one\\nline 2/, report);
  });

  it('signed out (no provider): offers its terminal login, session/new still succeeds and the prompt fails with -32603', async () => {
    client = await TurnClient.start({ recipe: opencodeRecipe, handlers: [openaiChat], signedOut: true });
    const { init, session } = await client.openSession();
    assert.deepStrictEqual(
      init.authMethods?.map((m) => [m.id, m.name, m.type, m._meta]),
      [[OPENCODE_LOGIN_METHOD, 'Login with opencode', 'agent', { 'terminal-auth': { command: 'opencode', args: ['auth', 'login'], label: 'OpenCode Login' } }]],
    );
    const model = session.configOptions?.find((o) => o.id === 'model');
    assert.strictEqual(model?.currentValue, 'unknown/unknown');
    const error = await client.prompt(session.sessionId, 'hi').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.strictEqual((error as { code?: number } | undefined)?.code, -32603, String(error));
    assert.strictEqual(client.endpoint.requests.length, 0);
  });
});
