// The real Qwen Code from npm (0.24.4, `qwen --acp`) does a whole turn against the scripted Chat
// Completions endpoint, through Switchboard's own process and protocol layers.
//
// What it does over ACP (measured): text as agent_message_chunk; each tool call is first announced
// while the model streams it (`tool_call`, status pending, title "ReadFile"/"Edit"/"WriteFile"/"Shell",
// rawInput {}, `_meta` {toolName, provenance: "builtin", phase: "preparing"}), then a `tool_call_update` in_progress with the real title
// ("ReadFile: notes.txt", "Shell: <command>") and rawInput, then `completed` with content and rawOutput.
// Reads go through fs/read_text_file; edits and new files through session/request_permission (options
// proceed_always "Allow All Edits", proceed_once "Allow", cancel "Reject"; the toolCall carries the diff
// and the title is the file name) and then fs/write_text_file (an edit re-reads the file first). Edits
// get no in_progress update. The shell runs inside the agent (no terminal/*), and a read-only command
// such as `echo … && ls` runs without asking in mode "default". After a tool result Qwen calls
// `craft/drainMidTurnQueue` (not `_`-prefixed, so Switchboard answers -32601 and Qwen carries on).
// Usage comes as `_meta.usage` on an empty agent_message_chunk after each model response; the prompt
// response carries only `_meta["qwen.branchPoint"]`. Qwen refuses to edit a file it has not read in
// the session (the edit ends `failed`: "has not been read in this session"), so scripts read first.
// What a shell command printed is Qwen's own capture (on a loaded machine it sometimes drops a line): the
// test checks that the output it reports arrives in both places it sends it, never the text itself.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AuthRequiredError } from '../../../src/acp';
import { openaiChat } from '../../fixtures/modelEndpoint/openaiChat';
import { QWEN_OPENAI_METHOD, qwenRecipe } from '../../fixtures/realAgents/qwen';
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
  readonly content?: ReadonlyArray<{ type: string; content?: { text?: string }; path?: string; oldText?: string | null; newText?: string }>;
  readonly _meta?: { toolName?: string; provenance?: string; phase?: string };
}

const NOTES = 'line one\nline two\nline three\n';

describe('Qwen Code 0.24.4 (real) does a whole turn', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('streams text, reads, edits with permission, writes a new file and reports a shell command', async () => {
    client = await TurnClient.start({ recipe: qwenRecipe, handlers: [openaiChat], permissions: 'ask', files: { 'notes.txt': NOTES } });
    const c = client;
    const notes = path.join(c.cwd, 'notes.txt');
    const added = path.join(c.cwd, 'added.txt');
    c.endpoint.script([
      { text: 'Let me read the notes first.', tools: [{ read: { path: notes } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: notes, oldText: 'line two', newText: 'line 2' } }] },
      { tools: [{ write: { path: added, content: 'brand new\n' } }] },
      { tools: [{ shell: { command: 'echo shell-says-hi' } }] },
      { text: 'All done: the shell said shell-says-hi.' },
    ]);
    const { init, session } = await c.openSession();
    assert.deepStrictEqual(init.authMethods?.map((m) => m.id), [QWEN_OPENAI_METHOD]);
    assert.strictEqual(session.modes?.currentModeId, 'default', 'permissions "ask" is mode default');
    const result = await c.prompt(session.sessionId, 'Fix the notes');

    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.strictEqual(c.agentText(), 'Let me read the notes first.Now the edit.All done: the shell said shell-says-hi.');
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), 'line one\nline 2\nline three\n');
    assert.strictEqual(fs.readFileSync(added, 'utf8'), 'brand new\n');

    // Every tool call: announced pending while streamed, ends completed; the kinds are ACP's.
    const toolUpdates = [...c.updatesOf('tool_call'), ...c.updatesOf('tool_call_update')] as unknown as ToolUpdate[];
    const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
    assert.deepStrictEqual(calls.map((u) => [u.title, u.kind, u.status]), [['ReadFile', 'read', 'pending'], ['Edit', 'edit', 'pending'], ['WriteFile', 'edit', 'pending'], ['Shell', 'execute', 'pending']]);
    for (const call of calls) {
      assert.deepStrictEqual(call._meta, { toolName: call._meta?.toolName, provenance: 'builtin', phase: 'preparing' });
      const last = toolUpdates.filter((u) => u.toolCallId === call.toolCallId).pop();
      assert.strictEqual(last?.status, 'completed', `${call.title} completed`);
    }
    const updatesOf = (id: string) => (c.updatesOf('tool_call_update') as unknown as ToolUpdate[]).filter((u) => u.toolCallId === id);
    const [read, edit, write, shell] = calls.map((call) => updatesOf(call.toolCallId));
    assert.deepStrictEqual(read.map((u) => [u.status, u.title]), [['in_progress', 'ReadFile: notes.txt'], ['completed', undefined]]);
    assert.deepStrictEqual(read[0].rawInput, { file_path: notes });
    assert.strictEqual(read[1].content?.[0].content?.text, NOTES);
    assert.deepStrictEqual(edit.map((u) => u.status), ['completed'], 'an edit gets no in_progress update');
    assert.deepStrictEqual(edit[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', notes, NOTES, 'line one\nline 2\nline three\n']]);
    assert.deepStrictEqual(write[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', added, '', 'brand new\n']]);
    assert.deepStrictEqual(shell.map((u) => [u.status, u.title]), [['in_progress', 'Shell: echo shell-says-hi (Runs echo shell-says-hi)'], ['completed', undefined]]);
    const shellOutput = shell[1].rawOutput && typeof shell[1].rawOutput === 'object' ? (shell[1].rawOutput as Record<string, unknown>).output : undefined;
    assert.strictEqual(typeof shellOutput, 'string', `the output in rawOutput: ${JSON.stringify(shell[1].rawOutput)}`);
    assert.ok((shell[1].content?.[0].content?.text ?? '').includes(String(shellOutput)), 'the same output as text content');

    // Permission for the edit and the new file (not for the read-only shell command), each answered allow.
    assert.deepStrictEqual(c.permissionRequests.map((p) => [p.toolCall.toolCallId, p.toolCall.title, p.toolCall.kind]), [[calls[1].toolCallId, 'notes.txt', 'edit'], [calls[2].toolCallId, 'Writing to added.txt', 'edit']]);
    assert.deepStrictEqual(c.permissionRequests[0].options.map((o) => [o.optionId, o.name, o.kind]), [['proceed_always', 'Allow All Edits', 'allow_always'], ['proceed_once', 'Allow', 'allow_once'], ['cancel', 'Reject', 'reject_once']]);
    assert.deepStrictEqual(c.permissionRequests[0].toolCall.rawInput, { file_path: notes, old_string: 'line two', new_string: 'line 2' });

    // Qwen reads and writes through the client: the read, the edit's re-reads, then the two writes.
    assert.deepStrictEqual(c.fsCalls.map((f) => [f.method, f.path]), [
      ['fs/read_text_file', notes],
      ['fs/read_text_file', notes],
      ['fs/read_text_file', notes],
      ['fs/write_text_file', notes],
      ['fs/write_text_file', added],
    ]);
    assert.strictEqual(c.fsCalls[3].content, 'line one\nline 2\nline three\n');

    // Usage comes as `_meta.usage` on an empty text chunk after each of the five model responses;
    // Switchboard's parser keeps `_meta` on tool calls only, so only the empty chunks arrive here.
    const empty = c.updatesOf('agent_message_chunk').filter((u) => 'content' in u && u.content && typeof u.content === 'object' && 'text' in u.content && u.content.text === '');
    assert.strictEqual(empty.length, 5);

    // The endpoint: five main requests (one per step), none left over, nothing unknown; the last carries
    // the shell's result back as a tool message.
    assert.strictEqual(c.endpoint.remaining, 0);
    assert.strictEqual(c.endpoint.mainRequests().length, 5, c.endpoint.describeLog());
    assert.ok(c.endpoint.requests.every((r) => r.api === 'openai-chat'), c.endpoint.describeLog());
    const lastMessages = (c.endpoint.mainRequests()[4].body as { messages: Array<{ role: string; content: unknown }> }).messages;
    assert.ok(lastMessages.some((m) => m.role === 'tool'), 'the shell result goes back to the model');
  });

  it('signed out: session/new answers -32000 with its one method, the OpenAI key (a terminal method)', async () => {
    client = await TurnClient.start({ recipe: qwenRecipe, handlers: [openaiChat], signedOut: true });
    const error = await client.openSession().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof AuthRequiredError, `expected AuthRequiredError, got ${String(error)}`);
    assert.deepStrictEqual(
      error.authMethods.map((m) => [m.id, m.name, (m as { _meta?: unknown })._meta]),
      [[QWEN_OPENAI_METHOD, 'Use OpenAI API key', { type: 'terminal', args: ['--auth-type=openai'] }]],
    );
    assert.strictEqual(client.endpoint.requests.length, 0);
  });
});
