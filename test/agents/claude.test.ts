// The real Claude Agent from npm (@agentclientprotocol/claude-agent-acp 0.101.0, which runs the Claude Code
// CLI 2.1.318 from @anthropic-ai/claude-agent-sdk) does whole turns against the scripted Anthropic
// endpoint, through Switchboard's own process and protocol layers.
//
// What it does over ACP (measured): a side request names the session (session_info_update with the title);
// thinking streams as agent_thought_chunk, text as agent_message_chunk (with the API's message id as
// messageId). Each tool call is announced while the model streams it (`tool_call`, status pending, title
// "Read File" / "Edit" / "Terminal", rawInput {}), then a `tool_call_update` with the real title ("Read
// notes.txt", "Edit notes.txt", the command) and rawInput, then one with only `_meta.claudeCode.toolResponse`,
// then `completed` with content and rawOutput. It reads and writes files itself (no fs/* requests) and runs
// the shell itself (no terminal/*). In mode "default" it asks session/request_permission for the edit and for
// a shell command that writes (not for a read-only one such as `echo`): options allow-once "Yes",
// allow-with-updates (allow_always) "Yes, allow all edits during this session" / "Yes, and allow access to
// <dir>/ and <cmd> * commands", reject "No". A usage_update follows each model response (the last with
// cost), and the prompt response carries `usage` and `_meta.quota`. The whole turn (read, edit, shell with
// permission) is a row of wholeTurn.table.ts; here what goes beyond it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AuthRequiredError } from '../../src/acp';
import { AnthropicApi } from '../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { pinned } from '../fixtures/realAgents/recipe';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';
import type { ToolUpdate } from './wholeTurn/row';

const anthropic = () => [new AnthropicApi()];

describe(`Claude Agent ${pinned('claude').version} (real) beyond the whole turn`, function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('with _meta.terminal_output the shell output comes as terminal content and _meta.terminal_output', async () => {
    client = await TurnClient.start({ recipe: claudeRecipe, handlers: anthropic(), permissions: 'auto' });
    const c = client;
    c.endpoint.script([{ tools: [{ shell: { command: 'echo via-terminal-meta' } }] }, { text: 'It printed via-terminal-meta.' }]);
    const { session } = await c.openSession({ clientMeta: { terminal_output: true } });
    assert.strictEqual(session.modes?.currentModeId, 'bypassPermissions', 'permissions "auto" is mode bypassPermissions');
    const result = await c.prompt(session.sessionId, 'Run echo');
    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());

    const [call] = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    assert.deepStrictEqual(call.content, [{ type: 'terminal', terminalId: call.toolCallId }], 'a terminal the client never created: its id is the tool call id');
    assert.deepStrictEqual(call._meta?.terminal_info, { terminal_id: call.toolCallId });
    const updates = (c.updatesOf('tool_call_update') as unknown as ToolUpdate[]).filter((u) => u.toolCallId === call.toolCallId);
    const output = updates.map((u) => u._meta?.terminal_output).filter((o) => o !== undefined);
    assert.ok(output.length > 0, 'the output streams as _meta.terminal_output');
    assert.deepStrictEqual(output.map((o) => Object.keys(o as object)), output.map(() => ['terminal_id', 'data']), JSON.stringify(output));
    assert.ok(output.every((o) => (o as { terminal_id: string }).terminal_id === call.toolCallId), JSON.stringify(output));
    const done = updates[updates.length - 1];
    assert.strictEqual(done.status, 'completed');
    assert.deepStrictEqual(done._meta?.terminal_exit, { terminal_id: call.toolCallId, exit_code: 0, signal: null });
    assert.ok(!updates.some((u) => u.content?.some((x) => x.type === 'content')), 'no text copy of the output');
    assert.deepStrictEqual(c.permissionRequests, [], 'bypassPermissions asks nothing');
  });

  it('in auto mode the permission classifier (side requests) allows a writing command without asking', async () => {
    client = await TurnClient.start({ recipe: claudeRecipe, handlers: anthropic(), permissions: 'ask' });
    const c = client;
    const outside = path.join(c.home, 'outside.txt');
    c.endpoint.script([{ tools: [{ shell: { command: `echo classified > ${outside}` } }] }, { text: 'Written.' }]);
    const { session } = await c.openSession();
    await c.withStderr(c.connection.setMode(session.sessionId, 'auto'));
    const result = await c.prompt(session.sessionId, 'Write a file outside the project');
    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.strictEqual(fs.readFileSync(outside, 'utf8'), 'classified\n');
    assert.deepStrictEqual(c.permissionRequests, [], 'the classifier decided');
    const classifier = c.endpoint.requests.filter((r) => r.kind === 'side' && /<severity>/.test(JSON.stringify(r.body)));
    assert.ok(classifier.length >= 1, c.endpoint.describeLog());
    assert.strictEqual(c.endpoint.mainRequests().length, 2);
  });

  it('signed out: session/new works, session/prompt answers -32000 before any model request', async () => {
    client = await TurnClient.start({ recipe: claudeRecipe, handlers: anthropic(), signedOut: true });
    const c = client;
    const { init, session } = await c.openSession();
    assert.deepStrictEqual(init.authMethods.map((m) => [m.id, m.type]), [['claude-ai-login', 'terminal'], ['console-login', 'terminal']]);
    const error = await c.prompt(session.sessionId, 'hello').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof AuthRequiredError, `expected AuthRequiredError, got ${String(error)}`);
    assert.strictEqual(error.method, 'session/prompt');
    assert.strictEqual(c.endpoint.requests.length, 0, c.endpoint.describeLog());
  });
});
