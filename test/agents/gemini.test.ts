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
// The whole turn (a read, an edit and a shell command behind permission) is a row of wholeTurn.table.ts;
// here what goes beyond it: permissions auto, model API errors and cancel, the sign-ins.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AcpRequestError, AuthRequiredError } from '../../src/acp';
import type { ApiHandler, ApiRequest } from '../fixtures/modelEndpoint/endpoint';
import { GeminiApi } from '../fixtures/modelEndpoint/gemini';
import { FAKE_GEMINI_KEY, GEMINI_API_KEY_METHOD, geminiRecipe } from '../fixtures/realAgents/gemini';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';
import { geminiShape } from './wholeTurn/updates';

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

describe('Gemini CLI 0.61 (real) against the scripted Gemini API', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
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
    assert.deepStrictEqual(geminiShape(c.updates.map((n) => n.update)), [
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
