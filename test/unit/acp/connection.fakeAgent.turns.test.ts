// The client against the scripted fake agent, spawned as a real child process: turns, from streaming and
// every update variant (and their load replay) to the agent's requests (permission, fs, terminal,
// elicitation, ext methods), cancelling, stop reasons, a crash, and hostile or unusual output. Every message
// the client sends is validated against the official schema.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConnectionClosedError, TranscriptState } from '../../../src/acp';
import { agentContent, CLIENT_INFO, text } from './helpers';
import { fakeAgentConnections } from './fakeAgentConnections';

describe('AcpClientConnection against the scripted fake agent: turns', function () {
  this.timeout(15000);
  const { start, ready } = fakeAgentConnections();

  it('creates a session with modes, config options and legacy models, and streams a turn', async () => {
    const { h, sessionId, session, state } = await ready();
    assert.equal(session.modes?.currentModeId, 'default');
    assert.equal(session.configOptions?.[0].kind, 'select');
    assert.equal(session.models?.currentModelId, 'fast');
    state.recordUserPrompt([text('hello there')]);
    const result = await h.conn.prompt(sessionId, [text('hello there')]);
    assert.equal(result.stopReason, 'end_turn');
    state.recordTurnEnd(result.stopReason);
    const items = state.transcript.items;
    assert.deepEqual(items.map((i) => i.kind), ['user_message', 'agent_message', 'turn_end']);
    const agent = items[1] as Extract<(typeof items)[number], { kind: 'agent_message' }>;
    assert.deepEqual(agent.content, [text('echo: hello there')], 'chunks with one messageId merge, and all arrive before the result');
    assert.equal((items[2] as { empty: boolean }).empty, false);
  });

  it('reduces every update variant, keeping unknown ones, and a load replay yields the same transcript', async () => {
    const { h, sessionId, state, listening } = await ready();
    state.recordUserPrompt([text('variants')]);
    const result = await h.conn.prompt(sessionId, [text('variants')]);
    state.recordTurnEnd(result.stopReason);
    const t = state.transcript;
    const kinds = t.items.map((i) => i.kind);
    assert.deepEqual(kinds, [
      'user_message', 'thought', 'agent_message', 'agent_message', 'tool_call', 'tool_call', 'plan', 'plan',
      'notice', 'compaction', 'subagent', 'unsupported', 'turn_end',
    ]);
    const [user, thought, msg1, msg2, tc1, tc2, plan, planMd, notice, compaction, subagent, unsupported] = t.items as never[] as Array<Record<string, unknown>>;
    assert.deepEqual(user.content, [text('variantshi from replay')], 'consecutive user chunks without messageId are one message');
    assert.deepEqual(thought.content, [text('thinking… 🤔')]);
    assert.deepEqual(msg1.content, [text('Hello wörld'), { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    assert.deepEqual(msg2.content, [
      { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' },
      { type: 'resource', uri: 'file:///b.ts', text: 'b', mimeType: 'text/x-typescript' },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' },
      { type: 'unknown', raw: { type: 'hologram', payload: 42 } },
    ]);
    assert.equal(tc1.title, 'Edit a.ts (done)');
    assert.equal(tc1.status, 'completed');
    assert.equal(tc1.toolKind, 'edit');
    assert.deepEqual(tc1.locations, [{ path: '/w/b.ts' }], 'locations replaced, not appended');
    assert.deepEqual(tc1.content, [
      { type: 'diff', path: '/w/a.ts', oldText: null, newText: 'c' },
      { type: 'terminal', terminalId: 't-1' },
      { type: 'content', content: text('done') },
      { type: 'unknown', raw: { type: 'sparkle' } },
    ], 'content replaced whole');
    assert.deepEqual(tc1.rawInput, { path: '/w/a.ts' });
    assert.deepEqual(tc1.rawOutput, { ok: true });
    assert.equal(tc2.toolKind, 'other');
    assert.equal(tc2.rawKind, 'teleport');
    assert.deepEqual(plan.entries, [{ content: 'step 1', priority: 'high', status: 'completed' }], 'plan replaced whole');
    assert.equal(planMd.markdown, '# Plan');
    assert.equal(notice.severity, 'warning');
    assert.deepEqual(compaction.summary, [text('Summary so far')]);
    assert.equal(compaction.status, 'completed');
    assert.equal(subagent.title, 'Researcher');
    assert.equal(unsupported.updateType, 'quantum_update');
    assert.deepEqual(unsupported.raw, { sessionUpdate: 'quantum_update', spin: 'up' });
    assert.deepEqual(t.commands, [{ name: 'web', description: 'Search the web', inputHint: 'query' }, { name: 'test', description: 'Run tests' }]);
    assert.equal(t.modes?.currentModeId, 'plan');
    assert.equal(t.modes?.availableModes.length, 2);
    assert.deepEqual(t.configOptions.map((o) => o.currentValue), ['smart', true]);
    assert.equal(t.title, 'Variants');
    assert.deepEqual(t.usage, { used: 1200, size: 200000, cost: { amount: 0.01, currency: 'USD' } });

    // Replay through session/load into a fresh transcript: same content.
    listening.dispose();
    const replayed = new TranscriptState(sessionId);
    let delivered = 0;
    h.conn.onSessionUpdate((n) => {
      delivered++;
      replayed.apply(n.update);
    });
    const before = delivered;
    const load = await h.conn.loadSession(sessionId, { cwd: '/work' });
    assert.ok(delivered - before >= 30, 'session/load resolves only after the whole replay was delivered');
    assert.equal(load.modes?.currentModeId, 'default');
    replayed.recordReplayEnd();
    // Everything the updates produced is identical (modes/config come from the load result).
    const { items, commands, title, updatedAt, usage } = agentContent(replayed.transcript);
    const live = agentContent(t);
    assert.deepEqual({ items, commands, title, updatedAt, usage }, { items: live.items, commands: live.commands, title: live.title, updatedAt: live.updatedAt, usage: live.usage });
  });

  it('answers permission requests through the registered handler', async () => {
    const harness = start();
    const asked: unknown[] = [];
    harness.conn.handle('session/request_permission', (params) => {
      asked.push(params.options.map((o) => o.optionId));
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    });
    await harness.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await harness.conn.newSession({ cwd: '/w' });
    const state = new TranscriptState(sessionId);
    harness.conn.onSessionUpdate((n) => state.apply(n.update));
    const result = await harness.conn.prompt(sessionId, [text('permission')]);
    assert.equal(result.stopReason, 'end_turn');
    assert.deepEqual(asked, [['allow', 'reject']]);
    const tool = state.transcript.items.find((i) => i.kind === 'tool_call') as { content: unknown[]; status: string };
    assert.deepEqual(tool.content, [{ type: 'content', content: text('allow') }]);
  });

  it('cancelling a turn answers pending permission requests "cancelled" and the agent stops', async () => {
    const harness = start();
    let handlerSignal: AbortSignal | undefined;
    harness.conn.handle('session/request_permission', (_params, context) => {
      handlerSignal = context.signal;
      return new Promise(() => undefined); // the user never clicks
    });
    await harness.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await harness.conn.newSession({ cwd: '/w' });
    const controller = new AbortController();
    const turn = harness.conn.prompt(sessionId, [text('permission')], { signal: controller.signal });
    await waitFor(() => handlerSignal !== undefined);
    controller.abort();
    const result = await turn;
    assert.equal(result.stopReason, 'cancelled');
    assert.equal(result.cancelledLocally, undefined);
    assert.ok(handlerSignal!.aborted);
    assert.ok(harness.sent.some((e) => e.method === 'session/cancel'));
  });

  it('a permission request the agent sends after the user stopped its turn is answered "cancelled", never shown', async () => {
    const harness = start();
    const asked: string[] = [];
    harness.conn.handle('session/request_permission', (params) => {
      asked.push(params.toolCall.toolCallId);
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    });
    await harness.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await harness.conn.newSession({ cwd: '/w' });
    const state = new TranscriptState(sessionId);
    harness.conn.onSessionUpdate((n) => state.apply(n.update));
    const controller = new AbortController();
    const turn = harness.conn.prompt(sessionId, [text('ask-after-cancel')], { signal: controller.signal });
    await waitFor(() => state.transcript.items.length > 0);
    controller.abort();
    assert.deepEqual(await turn, { stopReason: 'cancelled' });
    assert.deepEqual(asked, [], 'the late request never reached the handler');
    // The next turn's requests reach the handler again.
    assert.equal((await harness.conn.prompt(sessionId, [text('permission')])).stopReason, 'end_turn');
    assert.deepEqual(asked, ['perm-1']);
  });

  it('a cancelled turn the agent acknowledges ends with its stopReason', async () => {
    const { h, sessionId } = await ready();
    const controller = new AbortController();
    const turn = h.conn.prompt(sessionId, [text('wait-cancel')], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    assert.deepEqual(await turn, { stopReason: 'cancelled' });
  });

  it('ends the turn locally when the agent never answers session/cancel', async () => {
    const { h, sessionId } = await ready();
    const controller = new AbortController();
    const turn = h.conn.prompt(sessionId, [text('never-cancel')], { signal: controller.signal, cancelGraceMs: 100 });
    setTimeout(() => controller.abort(), 50);
    assert.deepEqual(await turn, { stopReason: 'cancelled', cancelledLocally: true });
    assert.ok(h.logger.lines.some((l) => l.includes('did not answer session/cancel')));
  });

  it('serves fs, terminal and elicitation requests and ext methods both ways', async () => {
    const harness = start();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-fs-'));
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'héllo');
    const calls: string[] = [];
    harness.conn.handleAll({
      'fs/read_text_file': (p) => (calls.push(`read ${p.line} ${p.limit}`), { content: fs.readFileSync(p.path, 'utf8') }),
      'fs/write_text_file': (p) => {
        calls.push('write');
        fs.writeFileSync(p.path, p.content);
      },
      'terminal/create': (p) => (calls.push(`create ${p.command} ${p.args?.join()} ${p.outputByteLimit}`), { terminalId: 'term-7' }),
      'terminal/output': () => ({ output: 'hi\n', truncated: false }),
      'terminal/wait_for_exit': () => ({ exitCode: 0, signal: null }),
      'terminal/kill': () => undefined,
      'terminal/release': (p) => void calls.push(`release ${p.terminalId}`),
      'elicitation/create': (p) => (calls.push(`elicit ${p.mode}`), { action: 'accept', content: { name: 'Ada' } }),
    });
    const notes: unknown[] = [];
    harness.conn.onExtRequest('_test/echo', (params) => ({ got: params }));
    harness.conn.onExtNotification('_test/note', (params) => notes.push(params));
    const completed: string[] = [];
    harness.conn.onElicitationComplete((p) => completed.push(p.elicitationId));
    const init = await harness.conn.initialize({ clientInfo: CLIENT_INFO });
    const advertised = (harness.sent[0].json as { params: { clientCapabilities: Record<string, unknown> } }).params.clientCapabilities;
    assert.deepEqual(advertised.fs, { readTextFile: true, writeTextFile: true });
    assert.equal(advertised.terminal, true);
    assert.deepEqual(advertised.elicitation, { form: {}, url: {} });
    assert.ok(init);
    const { sessionId } = await harness.conn.newSession({ cwd: dir });
    const state = new TranscriptState(sessionId);
    harness.conn.onSessionUpdate((n) => state.apply(n.update));
    await harness.conn.prompt(sessionId, [text(`fs ${file}`)]);
    assert.equal(fs.readFileSync(`${file}.out`, 'utf8'), 'HÉLLO');
    await harness.conn.prompt(sessionId, [text('terminal ls')]);
    await harness.conn.prompt(sessionId, [text('elicit')]);
    await harness.conn.prompt(sessionId, [text('ext')]);
    assert.deepEqual(calls, ['read 1 100', 'write', 'create ls hi 1000', 'release term-7', 'elicit form']);
    assert.deepEqual(notes, [{ note: 1 }]);
    assert.deepEqual(completed, ['el-1']);
    const messages = state.transcript.items.filter((i) => i.kind === 'agent_message').map((i) => JSON.stringify((i as { content: unknown }).content));
    assert.ok(messages.some((m) => m.includes('elicitation: accept {\\"name\\":\\"Ada\\"}')));
    assert.ok(messages.some((m) => m.includes('ext: {\\"got\\":{\\"hello\\":\\"world\\"}}')));
    const terminalTool = state.transcript.items.find((i) => i.kind === 'tool_call') as { content: unknown[]; rawOutput: unknown };
    assert.deepEqual(terminalTool.content, [{ type: 'terminal', terminalId: 'term-7' }]);
    assert.deepEqual(await harness.conn.extMethod('_test/agent_echo', { a: 1 }), { echoed: { a: 1 } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers unknown agent requests with -32601 and the method in error.data', async () => {
    const { h, sessionId, state } = await ready();
    await h.conn.prompt(sessionId, [text('unknown-method')]);
    const said = JSON.stringify(state.transcript.items.at(-1));
    assert.ok(said.includes('error -32601 {\\"method\\":\\"client/does_not_exist\\"}'), said);
  });

  it('flags an empty end_turn and keeps other stop reasons', async () => {
    const { h, sessionId, state } = await ready();
    state.recordUserPrompt([text('empty')]);
    state.recordTurnEnd((await h.conn.prompt(sessionId, [text('empty')])).stopReason);
    state.recordUserPrompt([text('max-tokens')]);
    state.recordTurnEnd((await h.conn.prompt(sessionId, [text('max-tokens')])).stopReason);
    const ends = state.transcript.items.filter((i) => i.kind === 'turn_end');
    assert.deepEqual(ends.map((e) => [e.stopReason, e.empty]), [['end_turn', true], ['max_tokens', false]]);
  });

  it('rejects a turn with ConnectionClosedError when the agent crashes mid-turn', async () => {
    const { h, sessionId, state } = await ready();
    await assert.rejects(h.conn.prompt(sessionId, [text('crash')]), ConnectionClosedError);
    assert.ok(JSON.stringify(state.transcript.items).includes('about to crash'), 'updates before the crash were delivered');
    await h.conn.closed;
    await assert.rejects(h.conn.newSession({ cwd: '/' }), ConnectionClosedError);
  });

  for (const variant of [['--garbage'], ['--content-length'], ['--crlf', '--split-writes'], ['--garbage', '--split-writes']]) {
    it(`works over hostile or unusual output: ${variant.join(' ')}`, async () => {
      const { h, sessionId, state } = await ready(variant);
      const result = await h.conn.prompt(sessionId, [text('variants')]);
      assert.equal(result.stopReason, 'end_turn');
      assert.equal(state.transcript.items.filter((i) => i.kind === 'tool_call').length, 2);
      assert.equal(state.transcript.title, 'Variants');
      if (variant.includes('--garbage')) {
        assert.ok(h.logger.lines.some((l) => l.includes('non-JSON line')));
        assert.ok(h.logger.lines.some((l) => l.includes('unknown request id 987654')));
        assert.ok(h.logger.lines.some((l) => l.includes('not JSON-RPC')));
      }
      if (variant.includes('--content-length')) {
        assert.ok(h.logger.lines.some((l) => l.includes('content-length framing')));
        assert.ok(h.sent.length > 2);
      }
    });
  }
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}
