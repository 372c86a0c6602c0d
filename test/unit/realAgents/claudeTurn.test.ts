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
// cost), and the prompt response carries `usage` and `_meta.quota`.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AuthRequiredError } from '../../../src/acp';
import { AnthropicApi, SIDE_TITLE } from '../../fixtures/modelEndpoint/anthropic';
import { claudeRecipe } from '../../fixtures/realAgents/claude';
import { pinned } from '../../fixtures/realAgents/recipe';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

/** The fields of tool_call / tool_call_update the assertions read. */
interface ToolUpdate {
  readonly sessionUpdate: string;
  readonly toolCallId: string;
  readonly title?: string;
  readonly kind?: string;
  readonly status?: string;
  readonly rawInput?: Record<string, unknown>;
  readonly rawOutput?: unknown;
  readonly content?: ReadonlyArray<{ type: string; content?: { text?: string }; path?: string; oldText?: string | null; newText?: string; terminalId?: string }>;
  readonly _meta?: Record<string, unknown>;
}

const NOTES = 'alpha\nbeta\ngamma\n';
const anthropic = () => [new AnthropicApi()];

describe(`Claude Agent ${pinned('claude').version} (real) does a whole turn`, function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('streams a thought and text, reads, edits and runs a shell command with permission, and ends the turn', async () => {
    client = await TurnClient.start({ recipe: claudeRecipe, handlers: anthropic(), permissions: 'ask', files: { 'notes.txt': NOTES } });
    const c = client;
    const notes = path.join(c.cwd, 'notes.txt');
    const command = 'echo shell-says-hi > shell.txt && cat shell.txt';
    c.endpoint.script([
      // A relative path: the endpoint resolves it against the cwd in the agent's environment block.
      { thought: 'The notes need one word changed.', text: 'Let me read the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: notes, oldText: 'beta', newText: 'BETA' } }] },
      { text: 'And a command.', tools: [{ shell: { command } }] },
      { text: 'All done: the shell said shell-says-hi.' },
    ]);
    const { init, session } = await c.openSession();
    assert.strictEqual(init.agentInfo?.version, pinned('claude').version);
    assert.strictEqual(session.modes?.currentModeId, 'default', 'permissions "ask" is mode default (from settings.json)');
    const result = await c.prompt(session.sessionId, 'Change beta to BETA in notes.txt, then run a command');

    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.strictEqual(c.agentText(), 'Let me read the notes first.Now the edit.And a command.All done: the shell said shell-says-hi.');
    const thoughts = c.updatesOf('agent_thought_chunk').map((u) => ('content' in u && u.content && typeof u.content === 'object' && 'text' in u.content ? u.content.text : ''));
    assert.strictEqual(thoughts.join(''), 'The notes need one word changed.');
    assert.deepStrictEqual(c.updatesOf('session_info_update').map((u) => ('title' in u ? u.title : undefined)), [SIDE_TITLE], 'the title comes from the side request');
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), 'alpha\nBETA\ngamma\n');
    assert.strictEqual(fs.readFileSync(path.join(c.cwd, 'shell.txt'), 'utf8'), 'shell-says-hi\n');

    // Each tool call: announced pending while streamed, then titled, then completed.
    const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    assert.deepStrictEqual(calls.map((u) => [u.title, u.kind, u.status]), [['Read File', 'read', 'pending'], ['Edit', 'edit', 'pending'], ['Terminal', 'execute', 'pending']]);
    const updatesOf = (id: string) => (c.updatesOf('tool_call_update') as unknown as ToolUpdate[]).filter((u) => u.toolCallId === id);
    const [read, edit, shell] = calls.map((call) => updatesOf(call.toolCallId));
    for (const updates of [read, edit, shell]) assert.strictEqual(updates[updates.length - 1].status, 'completed');
    assert.deepStrictEqual([read[0].title, read[0].rawInput], ['Read notes.txt', { file_path: notes }]);
    assert.strictEqual(read[read.length - 1].content?.[0].content?.text, '```\n1\talpha\n2\tbeta\n3\tgamma\n```');
    assert.deepStrictEqual([edit[0].title, edit[0].rawInput], ['Edit notes.txt', { replace_all: false, file_path: notes, old_string: 'beta', new_string: 'BETA' }]);
    assert.deepStrictEqual(edit[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', notes, 'beta', 'BETA']]);
    assert.ok(edit.some((u) => u.content?.some((x) => x.type === 'diff' && x.newText === 'alpha\nBETA\ngamma')), 'after the write, the diff in context');
    assert.deepStrictEqual([shell[0].title, shell[0].rawInput], [command, { command, description: 'Run echo' }]);
    const shellDone = shell[shell.length - 1];
    // What the command printed is Claude Code's own capture: the same text in rawOutput and as a console block.
    assert.strictEqual(typeof shellDone.rawOutput, 'string');
    assert.strictEqual(shellDone.content?.[0].content?.text, `\`\`\`console\n${String(shellDone.rawOutput)}\n\`\`\``);

    // Permission for the edit and the writing command, each answered allow-once.
    assert.deepStrictEqual(
      c.permissionRequests.map((p) => [p.toolCall.toolCallId, p.toolCall.title, p.toolCall.kind]),
      [[calls[1].toolCallId, 'Edit notes.txt', 'edit'], [calls[2].toolCallId, command, 'execute']],
    );
    assert.deepStrictEqual(c.permissionRequests[0].options.map((o) => [o.optionId, o.name, o.kind]), [
      ['allow-once', 'Yes', 'allow_once'],
      ['allow-with-updates', 'Yes, allow all edits during this session', 'allow_always'],
      ['reject', 'No', 'reject_once'],
    ]);
    assert.deepStrictEqual(c.permissionRequests[1].options.map((o) => o.optionId), ['allow-once', 'allow-with-updates', 'reject']);
    assert.match(c.permissionRequests[1].options[1].name, /^Yes, and allow access to switchboard-claude-project-\w+\/ and echo shell-says-hi \* commands$/);

    // Claude reads and writes files itself: no fs/* requests reach the client.
    assert.deepStrictEqual(c.fsCalls, []);
    // A usage_update after each model response; the last one with the cost.
    const usage = c.updatesOf('usage_update') as unknown as Array<{ used: number; size: number; cost?: { currency: string } }>;
    assert.ok(usage.length >= 4, `usage updates: ${usage.length}`);
    assert.strictEqual(usage[usage.length - 1].cost?.currency, 'USD');

    // The endpoint: four main requests (one a step), all through /v1/messages?beta=true; side requests for
    // the title (and, once the turn has ended, the prompt suggestion, which may not have arrived yet).
    assert.strictEqual(c.endpoint.remaining, 0);
    const main = c.endpoint.mainRequests();
    assert.strictEqual(main.length, 4, c.endpoint.describeLog());
    assert.ok(c.endpoint.requests.every((r) => r.api === 'anthropic' && r.path === '/v1/messages?beta=true' && r.status === undefined), c.endpoint.describeLog());
    const side = c.endpoint.requests.filter((r) => r.kind === 'side').map((r) => r.body as { model: string; output_config?: unknown });
    assert.ok(side.some((b) => /"title"/.test(JSON.stringify(b.output_config))), `a title request: ${c.endpoint.describeLog()}`);
    const toolResult = (i: number) => JSON.stringify((main[i].body as { messages: unknown[] }).messages.slice(-1));
    assert.match(toolResult(1), /tool_result.*alpha/);
    assert.match(toolResult(3), /tool_result/);
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
