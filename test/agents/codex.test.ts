// The real Codex (codex-acp 0.16.0, codex 0.137) from npm does turns against the scripted OpenAI
// Responses endpoint, through Switchboard's own protocol and process layers. The assertions pin what
// Codex sends over ACP (measured): it applies patches and runs shells itself (no fs/*, no terminal/*),
// and a shell's output reaches the client only in `rawOutput`, unless the client advertises
// `_meta.terminal_output`, in which case output after the first chunk streams as `_meta.terminal_output`
// (and the end of the command, as `_meta.terminal_exit`, does not always come: see that test). Its whole
// turn (an edit and a shell behind permission) is a row of wholeTurn.table.ts; here what goes beyond it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { StringDecoder } from 'string_decoder';
import { AuthRequiredError, ErrorCode, TranscriptState } from '../../src/acp';
import { openaiResponses } from '../fixtures/modelEndpoint/openaiResponses';
import { codex } from '../fixtures/realAgents/codex';
import { TURN_TIMEOUT_MS, TurnClient } from './turnClient';
import { inputItems, toolCallOf } from './wholeTurn/updates';

type Json = Record<string, unknown>;

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

describe('Codex (codex-acp 0.16.0, real) beyond the whole turn, against the Responses API', function () {
  this.timeout(3 * TURN_TIMEOUT_MS);
  let client: TurnClient | undefined;
  afterEach(async () => {
    await client?.stop();
    client = undefined;
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

    // Codex may send no update at all for a command it ran through unified exec (below: how the chat shows it).
    const shell = toolCallOf(c, 'execute', 'optional');
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
