// The real Gemini CLI from npm (0.61.0, `gemini --acp`) does whole turns against the scripted Gemini API,
// through Switchboard's own process and protocol layers. What it does, measured (and asserted below):
// - the read_file tool reads the disk itself: no fs/read_text_file (0.61 ignores the ACP file system
//   for reads), and its tool call carries no content;
// - an edit is announced only inside session/request_permission (no tool_call first); its diff reads the
//   file through fs/read_text_file before asking and again after, then writes with fs/write_text_file;
// - a shell command that writes asks too; no terminal/*, and no output reaches the client (the model
//   gets it in the functionResponse);
// - token usage comes only in the prompt response's `_meta.quota` (no usage_update, no title), which
//   AcpClientConnection.prompt drops;
// - write_file of a NEW file fails before asking ("Error checking existing file: …"): 0.61 does not see
//   the client's not-found error as ENOENT, so only existing files are edited here.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AcpRequestError, AuthRequiredError, TranscriptState, type SessionUpdate } from '../../../src/acp';
import type { ApiHandler, ApiRequest, LoggedRequest } from '../../fixtures/modelEndpoint/endpoint';
import { GeminiApi } from '../../fixtures/modelEndpoint/gemini';
import { FAKE_GEMINI_KEY, GEMINI_API_KEY_METHOD, geminiRecipe } from '../../fixtures/realAgents/gemini';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

const OPTIONS = [
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];

/** The Gemini handler, also recording the key each request carried (Gemini sends it as x-goog-api-key). */
class KeyRecordingGemini implements ApiHandler {
  readonly api = 'gemini' as const;
  readonly keys: string[] = [];
  private readonly inner = new GeminiApi();
  matches(method: string, url: URL): boolean {
    return this.inner.matches(method, url);
  }
  handle(request: ApiRequest): Promise<void> {
    this.keys.push(String(request.req.headers['x-goog-api-key']));
    return this.inner.handle(request);
  }
}

/** "kind" for chunks, "kind:tool:status" for tool calls (Gemini's ids are `<tool>__<tool>_<time>_<n>`), runs collapsed. */
function shape(updates: readonly SessionUpdate[]): string[] {
  const out: string[] = [];
  for (const u of updates) {
    if (u.sessionUpdate === 'available_commands_update') continue;
    const s = u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update' ? `${u.sessionUpdate}:${u.toolCallId.split('__')[0]}:${String(u.status)}` : u.sessionUpdate;
    if (out[out.length - 1] !== s) out.push(s);
  }
  return out;
}

/** The last content of a main request: the functionResponse the agent sends back to the model. */
function functionResponse(request: LoggedRequest): { name: string; response: { output: string } } {
  const contents = (request.body as { contents: Array<{ parts: Array<{ functionResponse?: { name: string; response: { output: string } } }> }> }).contents;
  const found = contents[contents.length - 1].parts.find((p) => p.functionResponse)?.functionResponse;
  assert.ok(found, `no functionResponse in ${request.path}`);
  return found;
}

describe('Gemini CLI 0.61 (real) against the scripted Gemini API', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('does a whole turn: thought, text, a read from disk, an edit and a shell command behind permission, the answer', async () => {
    const fsCallsAtPermission: number[] = [];
    const c = (client = await TurnClient.start({
      recipe: geminiRecipe,
      handlers: [new GeminiApi()],
      permissions: 'ask',
      files: { 'notes.txt': 'alpha\nbeta\n', 'src/app.ts': "export const greeting = 'hello';\n" },
      choosePermission: () => {
        fsCallsAtPermission.push(c.fsCalls.length);
        return 'proceed_once';
      },
    }));
    const app = path.join(c.cwd, 'src', 'app.ts');
    c.endpoint.script([
      // A relative path: the endpoint resolves it against the workspace Gemini names in its context.
      { thought: '**Planning the change**\nRead the notes, then edit.', text: 'Let me look at the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: app, oldText: "'hello'", newText: "'hello, world'" } }] },
      { tools: [{ shell: { command: 'echo shell-ran | tee shell.txt' } }] },
      { text: 'All done: the greeting now says hello, world.' },
    ]);
    const { session } = await c.openSession();
    const before = c.updates.length;
    const result = await c.prompt(session.sessionId, 'Update the greeting');
    const updates = c.updates.slice(before).map((n) => n.update);

    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.deepStrictEqual(shape(updates), [
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
    assert.strictEqual(c.agentText(), 'Let me look at the notes first.Now the edit.All done: the greeting now says hello, world.');

    // The read: a tool call titled by the file, with its location and no content; the disk was read directly.
    const notes = path.join(c.cwd, 'notes.txt');
    const read = updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update').filter((u) => u.toolCallId.startsWith('read_file__'));
    assert.deepStrictEqual(read.map((u) => [u.title, u.kind, u.status, u.content, u.locations]), [
      ['notes.txt', 'read', 'in_progress', [], [{ path: notes }]],
      ['notes.txt', 'read', 'completed', [], [{ path: notes }]],
    ]);
    assert.ok(!c.fsCalls.some((f) => f.path === notes), 'read_file does not use fs/read_text_file in 0.61');

    // The edit: only inside the permission request, then a completed update with the same diff (without _meta).
    const diff = { type: 'diff', path: app, oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" };
    const [editAsk, shellAsk] = c.permissionRequests;
    assert.strictEqual(c.permissionRequests.length, 2);
    assert.deepStrictEqual(editAsk.options, OPTIONS);
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
    assert.deepStrictEqual(c.fsCalls, [
      { method: 'fs/read_text_file', path: app },
      { method: 'fs/read_text_file', path: app },
      { method: 'fs/write_text_file', path: app, content: "export const greeting = 'hello, world';\n" },
    ]);
    assert.deepStrictEqual(fsCallsAtPermission, [1, 3], 'one read for the diff before asking, the re-read and the write after');
    assert.strictEqual(fs.readFileSync(app, 'utf8'), "export const greeting = 'hello, world';\n");

    // The shell command: asked with the command as title, then completed with no output for the client.
    assert.deepStrictEqual(shellAsk.options, OPTIONS);
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
    assert.strictEqual(fs.readFileSync(path.join(c.cwd, 'shell.txt'), 'utf8'), 'shell-ran\n');
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), 'alpha\nbeta\n');

    // The endpoint: one router classifier, then four main requests carrying each tool's result back.
    const side = c.endpoint.requests.filter((r) => r.kind === 'side');
    assert.deepStrictEqual(side.map((r) => r.path), ['/v1beta/models/gemini-3.5-flash-lite:generateContent'], c.endpoint.describeLog());
    assert.match(JSON.stringify(side[0].body), /complexity_score/);
    const main = c.endpoint.mainRequests();
    assert.strictEqual(main.length, 4, c.endpoint.describeLog());
    assert.ok(main.every((r) => /^\/v1beta\/models\/[\w.-]+:streamGenerateContent\?alt=sse$/.test(r.path)));
    const readBack = functionResponse(main[1]);
    assert.deepStrictEqual([readBack.name, readBack.response], ['read_file', { output: 'alpha\nbeta\n' }], 'the disk content');
    assert.match(functionResponse(main[2]).response.output, /^Successfully modified file: .*app\.ts \(1 replacements\)/);
    assert.strictEqual(typeof functionResponse(main[3]).response.output, 'string', 'the model, not the client, gets the output');
    assert.strictEqual(c.endpoint.remaining, 0);

    // Switchboard's reducer makes three finished tool cards of it.
    const transcript = new TranscriptState(session.sessionId);
    for (const u of updates) transcript.apply(u);
    const tools = transcript.transcript.items.flatMap((i) => (i.kind === 'tool_call' ? [[i.toolKind, i.status, i.title]] : []));
    assert.deepStrictEqual(tools, [
      ['read', 'completed', 'notes.txt'],
      ['edit', 'completed', "src/app.ts: 'hello' => 'hello, world'"],
      ['execute', 'completed', 'echo shell-ran | tee shell.txt'],
    ]);
  });

  it('with permissions auto (auto_edit + allowed shell in a trusted folder) edits and runs without asking', async () => {
    const c = (client = await TurnClient.start({ recipe: geminiRecipe, handlers: [new GeminiApi()], permissions: 'auto', files: { 'a.txt': 'one\n' } }));
    c.endpoint.script([{ tools: [{ edit: { path: 'a.txt', oldText: 'one', newText: 'two' } }] }, { tools: [{ shell: { command: 'echo ran > ran.txt' } }] }, { text: 'Done both.' }]);
    const { session } = await c.openSession();
    const result = await c.prompt(session.sessionId, 'Go');
    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.deepStrictEqual(c.permissionRequests, []);
    assert.strictEqual(fs.readFileSync(path.join(c.cwd, 'a.txt'), 'utf8'), 'two\n');
    assert.strictEqual(fs.readFileSync(path.join(c.cwd, 'ran.txt'), 'utf8'), 'ran\n');
    assert.deepStrictEqual(shape(c.updates.map((n) => n.update)), [
      'tool_call:replace:in_progress',
      'tool_call_update:replace:completed',
      'tool_call:run_shell_command:in_progress',
      'tool_call_update:run_shell_command:completed',
      'agent_message_chunk',
    ]);
  });

  it('passes a model API error through as the JSON-RPC error code, is cancelled while the model hangs, and goes on', async () => {
    const c = (client = await TurnClient.start({ recipe: geminiRecipe, handlers: [new GeminiApi()] }));
    // 401 (a key the API refuses) is not retried and not turned into -32000: the prompt fails with code
    // 401 and Google's error body as its message. (429/5xx are retried with backoff, ~10 s a try.)
    c.endpoint.script([{ fail: { status: 401, message: 'API key not valid.' } }, { hang: true }, { text: 'Still here.' }]);
    const { session } = await c.openSession();
    const failure = await c.prompt(session.sessionId, 'First').then(
      () => assert.fail('the prompt succeeded'),
      (e: unknown) => e,
    );
    assert.ok(failure instanceof AcpRequestError && !(failure instanceof AuthRequiredError), String(failure));
    assert.strictEqual(failure.code, 401);
    assert.strictEqual(failure.message.split('\n')[0], JSON.stringify({ error: { code: 401, message: 'API key not valid.', status: 'UNAUTHENTICATED' } }));

    const hanging = c.prompt(session.sessionId, 'Second');
    await c.endpoint.waitForMainRequests(2);
    await c.connection.cancel(session.sessionId);
    assert.strictEqual((await hanging).stopReason, 'cancelled');

    assert.strictEqual((await c.prompt(session.sessionId, 'Third')).stopReason, 'end_turn');
    assert.strictEqual(c.agentText(), 'Still here.');
    // The router's classifier runs once a prompt.
    assert.deepStrictEqual(c.endpoint.requests.map((r) => r.kind), ['side', 'main', 'side', 'main', 'side', 'main'], c.endpoint.describeLog());
  });

  it('signed out: session/new answers -32000 with the four methods; authenticate with _meta["api-key"] signs in without a restart', async () => {
    const gemini = new KeyRecordingGemini();
    const c = (client = await TurnClient.start({ recipe: geminiRecipe, handlers: [gemini], signedOut: true }));
    const error = await c.openSession().then(
      () => assert.fail('session/new succeeded without a key'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AuthRequiredError, String(error));
    assert.strictEqual(error.code, -32000);
    assert.strictEqual(error.method, 'session/new');
    assert.match(error.message, /Gemini API key is missing or not configured\./);
    assert.strictEqual(error.data, undefined, 'no data: the methods come from initialize');
    assert.deepStrictEqual(error.authMethods.map((m) => [m.id, m.name, m.type, m._meta]), [
      ['oauth-personal', 'Log in with Google', 'agent', undefined],
      ['gemini-api-key', 'Gemini API key', 'agent', { 'api-key': { provider: 'google' } }],
      ['vertex-ai', 'Vertex AI', 'agent', undefined],
      ['gateway', 'AI API Gateway', 'agent', { gateway: { protocol: 'google', restartRequired: 'false' } }],
    ]);

    // authenticate without a key "succeeds" but changes nothing: session/new still fails.
    await c.connection.authenticate(GEMINI_API_KEY_METHOD);
    await assert.rejects(c.connection.newSession({ cwd: c.cwd }), AuthRequiredError);

    // With the key in _meta (what Switchboard's sign-in sends for a method with `_meta["api-key"]`).
    await c.connection.authenticate(GEMINI_API_KEY_METHOD, {}, { 'api-key': 'AIzaSy-from-authenticate-meta' });
    const session = await c.withStderr(c.connection.newSession({ cwd: c.cwd }));
    c.endpoint.script([{ text: 'Signed in and answering.' }]);
    assert.strictEqual((await c.prompt(session.sessionId, 'Hello')).stopReason, 'end_turn');
    assert.strictEqual(c.agentText(), 'Signed in and answering.');
    assert.ok(gemini.keys.length > 0 && gemini.keys.every((k) => k === 'AIzaSy-from-authenticate-meta'), gemini.keys.join(', '));
  });

  it('signed in by a restart with GEMINI_API_KEY in env (env_var sign-in): authenticate, session/new and a turn work', async () => {
    const gemini = new KeyRecordingGemini();
    const c = (client = await TurnClient.start({ recipe: geminiRecipe, handlers: [gemini] }));
    const init = await c.withStderr(c.connection.initialize({ clientInfo: { name: 'switchboard-tests', version: '0.0.0' }, terminalAuth: true }, { timeoutMs: TURN_TIMEOUT_MS }));
    assert.ok(init.authMethods.some((m) => m.id === GEMINI_API_KEY_METHOD));
    await c.withStderr(c.connection.authenticate(GEMINI_API_KEY_METHOD));
    const session = await c.withStderr(c.connection.newSession({ cwd: c.cwd }));
    c.endpoint.script([{ text: 'Key from the environment.' }]);
    assert.strictEqual((await c.prompt(session.sessionId, 'Hello')).stopReason, 'end_turn');
    assert.strictEqual(c.agentText(), 'Key from the environment.');
    assert.deepStrictEqual([...new Set(gemini.keys)], [FAKE_GEMINI_KEY]);
  });
});
