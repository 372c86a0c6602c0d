// The real Codex (codex-acp 0.16.0, codex 0.137) from npm does whole turns against the scripted OpenAI
// Responses endpoint, through Switchboard's own protocol and process layers. The assertions pin what
// Codex sends over ACP (measured): it applies patches and runs shells itself (no fs/*, no terminal/*),
// and a shell's output reaches the client only in `rawOutput`, unless the client advertises
// `_meta.terminal_output`, in which case output after the first chunk streams as `_meta.terminal_output`
// (and the end of the command, as `_meta.terminal_exit`, does not always come: see that test).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { StringDecoder } from 'string_decoder';
import { AuthRequiredError, ErrorCode, TranscriptState } from '../../../src/acp';
import { openaiResponses } from '../../fixtures/modelEndpoint/openaiResponses';
import { CODEX_MODEL, codex } from '../../fixtures/realAgents/codex';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';

type Json = Record<string, unknown>;

/** The tool_call and its tool_call_updates for the tool call of this kind (the first one). */
function toolCallOf(client: TurnClient, kind: string): { start: Json; updates: Json[]; final: Json } {
  const all = client.updates.map((n) => n.update as unknown as Json);
  const start = all.find((u) => u.sessionUpdate === 'tool_call' && u.kind === kind);
  assert.ok(start, `a ${kind} tool_call\n${client.diagnostics()}`);
  const updates = all.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === start.toolCallId);
  assert.ok(updates.length > 0, `a tool_call_update for ${String(start.toolCallId)}`);
  // The tool call as the updates leave it (each sets only its fields): Codex may send its last _meta-only
  // terminal update after the one that completes the call.
  const final: Json = Object.assign({}, ...updates.map((u) => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null))));
  return { start, updates, final };
}

/**
 * Every JSON message the agent writes to stdout, as sent: a second, passive 'data' listener beside the
 * connection's own. Used where the protocol engine does not (yet) pass a field on, e.g. update `_meta`.
 */
function tapWire(client: TurnClient): Json[] {
  const messages: Json[] = [];
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  client.process.stdout.on('data', (chunk: Buffer | string) => {
    buffer += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        messages.push(JSON.parse(line) as Json);
      } catch {
        // Not JSON (a log line): the connection skips it too.
      }
    }
  });
  return messages;
}

/** The session/update payloads on the wire for one tool call, in order. */
function wireToolCall(wire: Json[], toolCallId: unknown): Json[] {
  return wire
    .filter((m) => m.method === 'session/update')
    .map((m) => (m.params as { update: Json }).update)
    .filter((u) => u.toolCallId === toolCallId);
}

/** The items of a logged request's `input` of one type (what Codex sent back to the model). */
function inputItems(body: unknown, type: string): Json[] {
  const input = (body as { input?: Json[] }).input ?? [];
  return input.filter((i) => i.type === type);
}

describe('Codex (codex-acp 0.16.0, real) does a whole turn against the Responses API', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('streams text, edits a file with apply_patch after asking, runs a shell, reports its output, ends the turn', async () => {
    client = await TurnClient.start({ recipe: codex, handlers: [openaiResponses], permissions: 'ask', files: { 'notes.txt': 'alpha\nbeta\ngamma\n' } });
    const c = client;
    const notes = path.join(c.cwd, 'notes.txt');
    const command = 'echo shell-ran > shell.txt && wc -l notes.txt';
    c.endpoint.script([
      { thought: 'The notes need a capital BETA.', text: 'I will update the notes.', tools: [{ edit: { path: 'notes.txt', oldText: 'beta', newText: 'BETA' } }] },
      { text: 'Now counting the lines.', tools: [{ shell: { command } }] },
      { text: 'Done: notes.txt now says BETA and has 3 lines.' },
    ]);
    const { init, session } = await c.openSession();
    assert.deepStrictEqual(init.agentInfo, { name: 'codex-acp', title: 'Codex', version: '0.16.0' });
    const model = session.configOptions?.find((o) => o.id === 'model');
    assert.strictEqual(model && 'currentValue' in model ? model.currentValue : undefined, CODEX_MODEL);

    const result = await c.prompt(session.sessionId, 'Capitalise beta in notes.txt, then count its lines');
    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());

    // Text and thought stream as chunks, in order, around the tool calls.
    assert.strictEqual(c.agentText(), 'I will update the notes.Now counting the lines.Done: notes.txt now says BETA and has 3 lines.');
    const thought = c.updatesOf('agent_thought_chunk').map((u) => ('content' in u ? (u.content as { text?: string }).text ?? '' : '')).join('');
    assert.strictEqual(thought, 'The notes need a capital BETA.');

    // The edit: one tool_call with the whole-file diff, a permission request, Codex writes the file itself.
    const edit = toolCallOf(c, 'edit');
    assert.strictEqual(edit.start.title, `Edit ${notes}`);
    assert.strictEqual(edit.start.status, 'in_progress');
    assert.deepStrictEqual(edit.start.content, [{ type: 'diff', path: notes, oldText: 'alpha\nbeta\ngamma\n', newText: 'alpha\nBETA\ngamma\n' }]);
    assert.deepStrictEqual(edit.start.locations, [{ path: notes }]);
    assert.deepStrictEqual((edit.start.rawInput as Json).changes, { [notes]: { type: 'update', unified_diff: '@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n', move_path: null } });
    assert.strictEqual(edit.final.status, 'completed');
    assert.strictEqual((edit.final.rawOutput as Json).success, true);
    assert.strictEqual(fs.readFileSync(notes, 'utf8'), 'alpha\nBETA\ngamma\n');
    assert.deepStrictEqual(c.fsCalls, [], 'Codex reads and writes files itself, never through fs/*');

    // The shell: title = the command, kind execute, no content; the output only in rawOutput.
    const shell = toolCallOf(c, 'execute');
    assert.strictEqual(shell.start.title, command);
    assert.strictEqual(shell.start.content, undefined, 'without _meta.terminal_output Codex sends no content when the shell starts');
    assert.deepStrictEqual((shell.start.rawInput as Json).command, ['/bin/bash', '-lc', command]);
    assert.strictEqual((shell.start.rawInput as Json).cwd, c.cwd);
    assert.strictEqual(shell.final.status, 'completed');
    const rawOutput = shell.final.rawOutput as Json;
    assert.strictEqual(rawOutput.exit_code, 0);
    // What the command printed is Codex's own capture (now and then empty, openai/codex#28207): its shape only.
    assert.strictEqual(typeof rawOutput.formatted_output, 'string');
    assert.strictEqual(typeof rawOutput.stdout, 'string');
    assert.strictEqual(fs.readFileSync(path.join(c.cwd, 'shell.txt'), 'utf8'), 'shell-ran\n');

    // Permission was asked for the edit and for the (not known-safe) command, each with Codex's options.
    assert.deepStrictEqual(c.permissionRequests.map((p) => [p.toolCall.toolCallId, p.toolCall.kind, p.toolCall.status]), [
      [edit.start.toolCallId, 'edit', 'pending'],
      [shell.start.toolCallId, 'execute', 'pending'],
    ]);
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
    const patchResult = inputItems(second, 'custom_tool_call_output');
    assert.match(String(patchResult[0]?.output), /Success\. Updated the following files:\nM .*notes\.txt/);
    const shellResult = inputItems(third, 'function_call_output');
    assert.match(String(shellResult[shellResult.length - 1]?.output), /Process exited with code 0/);
    assert.strictEqual(c.endpoint.remaining, 0);
  });

  it('with _meta.terminal_output: a terminal content block, streamed terminal_output and terminal_exit; permissions auto', async () => {
    client = await TurnClient.start({ recipe: codex, handlers: [openaiResponses], permissions: 'auto' });
    const c = client;
    const wire = tapWire(c);
    // The second line waits until the client has seen the tool call start (Codex drops output printed before
    // it): the test creates `go` then, so the order holds however slow the machine is.
    const command = 'echo first; while [ ! -e go ]; do sleep 0.05; done; echo second';
    const started = setInterval(() => {
      const seen = wire.some((m) => m.method === 'session/update' && ((m.params as { update: Json }).update._meta as { terminal_info?: unknown } | undefined)?.terminal_info);
      if (seen) {
        clearInterval(started);
        fs.writeFileSync(path.join(c.cwd, 'go'), '');
      }
    }, 20);
    c.endpoint.script([
      { tools: [{ write: { path: 'new.txt', content: 'fresh\n' } }, { shell: { command } }] },
      { text: 'Both done.' },
    ]);
    const { session } = await c.openSession({ clientMeta: { terminal_output: true } });
    const result = await c.prompt(session.sessionId, 'Write new.txt and run the command').finally(() => clearInterval(started));
    assert.strictEqual(result.stopReason, 'end_turn', c.diagnostics());
    assert.deepStrictEqual(c.permissionRequests, [], "approval_policy 'never' asks for nothing");
    assert.strictEqual(fs.readFileSync(path.join(c.cwd, 'new.txt'), 'utf8'), 'fresh\n');

    const shell = toolCallOf(c, 'execute');
    const id = shell.start.toolCallId;
    assert.deepStrictEqual(shell.start.content, [{ type: 'terminal', terminalId: id }], 'a terminal the client never created: its id is the call id');
    // The output itself only travels in `_meta`, so read it from the wire.
    const [start, ...updates] = wireToolCall(wire, id);
    assert.deepStrictEqual(start._meta, { terminal_info: { terminal_id: id, cwd: c.cwd } });
    const streamed = updates.map((u) => (u._meta as { terminal_output?: { terminal_id: string; data: string } } | undefined)?.terminal_output).filter((o) => o !== undefined);
    assert.ok(streamed.every((o) => o.terminal_id === id));
    assert.ok(streamed.every((o) => typeof o.data === 'string'));
    const exits = updates.map((u) => (u._meta as { terminal_exit?: unknown } | undefined)?.terminal_exit).filter((e) => e !== undefined);
    // How the chat shows the call once the turn is over: the updates through the session reducer.
    const state = new TranscriptState('codex');
    for (const n of c.updates) state.apply(n.update);
    state.recordTurnEnd(result.stopReason);
    const card = state.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === id);
    assert.ok(card?.kind === 'tool_call');
    if (shell.final.status === 'completed') {
      assert.strictEqual(typeof (shell.final.rawOutput as Json).formatted_output, 'string');
      assert.deepStrictEqual(exits, [{ terminal_id: id, exit_code: 0, signal: null }]);
      assert.strictEqual(card.unfinished, undefined);
    } else {
      // Codex does not always report the end of a command it ran through unified exec: on 2026-11-27 every run
      // of this test got no completing tool_call_update and no terminal_exit for the call at all (the model was
      // told "Process exited with code 0"). The chat must not show such a call running after the turn.
      assert.strictEqual(shell.final.status, undefined, `a status other than completed: ${String(shell.final.status)}`);
      assert.deepStrictEqual(exits, []);
      assert.strictEqual(card.status, 'in_progress');
      assert.strictEqual(card.unfinished, 'end_turn', 'ended as unfinished with the turn, not left running');
    }
    // The model gets the whole output back (over ACP, output printed before the tool call started is lost).
    const modelSaw = inputItems(c.endpoint.requests[1].body, 'function_call_output').map((i) => String(i.output)).join('\n');
    assert.match(modelSaw, /first\nsecond\n/);
    assert.strictEqual(c.agentText(), 'Both done.');
  });

  it('signed out (the built-in openai provider, no key): session/new asks for sign-in with its three methods', async () => {
    client = await TurnClient.start({ recipe: codex, handlers: [openaiResponses], signedOut: true });
    const c = client;
    const init = await c.withStderr(c.connection.initialize({ clientInfo: { name: 'switchboard-tests', version: '0.0.0' }, terminalAuth: true }, { timeoutMs: TURN_TIMEOUT_MS }));
    // chatgpt comes without `type` on the wire; Switchboard's schema reads that as 'agent' (the default).
    assert.deepStrictEqual(init.authMethods.map((m) => [m.id, m.name, 'type' in m ? m.type : undefined]), [
      ['chatgpt', 'Login with ChatGPT', 'agent'],
      ['codex-api-key', 'Use CODEX_API_KEY', 'env_var'],
      ['openai-api-key', 'Use OPENAI_API_KEY', 'env_var'],
    ]);
    const error = await c.connection.newSession({ cwd: c.cwd }, { timeoutMs: TURN_TIMEOUT_MS }).then(
      (session) => assert.fail(`session/new succeeded signed out: ${JSON.stringify(session)}`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof AuthRequiredError, `expected AuthRequiredError, got ${String(error)}\n${c.diagnostics()}`);
    assert.strictEqual(error.code, ErrorCode.AuthRequired);
    assert.deepStrictEqual(error.authMethods, init.authMethods);
    assert.deepStrictEqual(c.endpoint.requests, [], 'nothing reached the model API');
  });
});
