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
// field; Switchboard's PromptResult keeps only stopReason). The whole turn is a row of wholeTurn.table.ts;
// here what goes beyond it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { RequestPermissionParams } from '../../src/acp';
import { openaiChat } from '../fixtures/modelEndpoint/openaiChat';
import { OPENCODE_LOGIN_METHOD, opencodeRecipe } from '../fixtures/realAgents/opencode';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';
import type { ToolUpdate } from './wholeTurn/row';

const NOTES = 'line one\nline two\nline three\n';
const EDITED = 'line one\nline 2\nline three\n';

describe('OpenCode 1.18.33 (real) beyond the whole turn', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
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
