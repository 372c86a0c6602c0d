// The client against the scripted fake agent, spawned as a real child process: initialize and the protocol
// version, sign-in, the session methods and settings, what the agent's capabilities filter out, and waits
// that time out or are aborted. Every message the client sends is validated against the official schema.
import * as assert from 'node:assert/strict';
import {
  AuthRequiredError,
  CapabilityNotSupportedError,
  ConnectionClosedError,
  NotFoundError,
  ProtocolVersionError,
  TimeoutError,
  AbortedError,
  UnsupportedPromptContentError,
} from '../../../src/acp';
import { CLIENT_INFO, text, type Harness } from './helpers';
import { fakeAgentConnections } from './fakeAgentConnections';

describe('AcpClientConnection against the scripted fake agent: initialize, sign-in and sessions', function () {
  this.timeout(15000);
  let h: Harness;
  const { start: startChecked, ready } = fakeAgentConnections();
  const start = (args: string[] = []) => (h = startChecked(args));

  it('initializes with protocol version 1 as request id 0 and advertises only handled capabilities', async () => {
    start();
    h.conn.handle('fs/read_text_file', () => ({ content: '' }));
    const result = await h.conn.initialize({ clientInfo: CLIENT_INFO, terminalAuth: true });
    assert.equal(result.protocolVersion, 1);
    assert.equal(result.agentCapabilities.loadSession, true);
    assert.deepEqual(result.agentCapabilities.promptCapabilities, { image: true, audio: true, embeddedContext: true });
    assert.equal(result.authMethods.length, 3);
    assert.deepEqual(result.authMethods.map((m) => m.type), ['agent', 'terminal', 'env_var']);
    const init = h.sent.find((e) => e.method === 'initialize')!;
    assert.equal(init.id, 0);
    const caps = (init.json as { params: { clientCapabilities: Record<string, unknown> } }).params.clientCapabilities;
    assert.deepEqual(caps.fs, { readTextFile: true, writeTextFile: false });
    assert.equal(caps.terminal, false);
    assert.deepEqual(caps.auth, { terminal: true });
    assert.equal(caps.elicitation, undefined);
    const received = h.trace.find((e) => e.direction === 'receive' && e.method === 'initialize')!;
    assert.equal(received.id, 0);
    assert.ok(received.latencyMs! >= 0);
  });

  it('closes the connection with a typed error when the agent answers another protocol version', async () => {
    start(['--protocol-version=2']);
    await assert.rejects(h.conn.initialize({ clientInfo: CLIENT_INFO }), (e: unknown) => e instanceof ProtocolVersionError && e.agentVersion === 2 && /version 2/.test(e.message));
    const closed = await h.conn.closed;
    assert.ok(closed instanceof ConnectionClosedError);
    assert.ok(h.conn.isClosed);
    await assert.rejects(h.conn.newSession({ cwd: '/' }), ConnectionClosedError);
  });

  it('turns -32000 from session/new, load and prompt into AuthRequiredError with the auth methods', async () => {
    start(['--auth-required']);
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const isAuth = (method: string) => (e: unknown) => e instanceof AuthRequiredError && e.method === method && e.code === -32000 && e.authMethods.map((m) => m.id).join() === 'agent-login,terminal-login,api-key';
    await assert.rejects(h.conn.newSession({ cwd: '/w' }), isAuth('session/new'));
    await assert.rejects(h.conn.loadSession('sess-x', { cwd: '/w' }), isAuth('session/load'));
    await assert.rejects(h.conn.prompt('sess-x', [text('hi')]), isAuth('session/prompt'));
    await h.conn.authenticate('agent-login');
    const session = await h.conn.newSession({ cwd: '/w' });
    assert.match(session.sessionId, /^sess-/);
    await h.conn.logout();
    await assert.rejects(h.conn.prompt(session.sessionId, [text('hi')]), isAuth('session/prompt'));
  });

  it('lists sessions with paging, resumes, closes and deletes; unknown ids are NotFound', async () => {
    const { h } = await ready();
    await h.conn.newSession({ cwd: '/b' });
    await h.conn.newSession({ cwd: '/c' });
    const firstPage = await h.conn.listSessions();
    assert.equal(firstPage.sessions.length, 2);
    assert.equal(firstPage.nextCursor, '2');
    const all = [];
    for await (const s of h.conn.listAllSessions()) all.push(s.sessionId);
    assert.deepEqual(all, ['sess-1', 'sess-2', 'sess-3']);
    const resumed = await h.conn.resumeSession('sess-2', { cwd: '/b' });
    assert.equal(resumed.modes?.currentModeId, 'default');
    await h.conn.closeSession('sess-2');
    await h.conn.closeSession('sess-404');
    await h.conn.deleteSession('sess-3');
    await assert.rejects(h.conn.resumeSession('sess-3', { cwd: '/c' }), (e: unknown) => e instanceof NotFoundError && e.code === -32002);
    await assert.rejects(h.conn.prompt('nope', [text('x')]), NotFoundError);
    await assert.rejects(h.conn.loadSession('nope', { cwd: '/' }), NotFoundError);
  });

  it('sets mode, select and boolean config options, and the legacy model', async () => {
    const { h, sessionId, state } = await ready();
    await h.conn.setMode(sessionId, 'plan');
    assert.equal(state.transcript.modes?.currentModeId, 'plan', 'the mode update arrives before set_mode resolves');
    const select = await h.conn.setConfigOption(sessionId, 'model', 'smart');
    assert.equal(select.configOptions[0].currentValue, 'smart');
    const bool = await h.conn.setConfigOption(sessionId, 'thinking', true);
    assert.equal(bool.configOptions[1].currentValue, true);
    const sent = h.sent.filter((e) => e.method === 'session/set_config_option').map((e) => (e.json as { params: unknown }).params);
    assert.deepEqual(sent, [
      { sessionId, configId: 'model', value: 'smart' },
      { sessionId, configId: 'thinking', type: 'boolean', value: true },
    ]);
    await h.conn.setModel(sessionId, 'smart');
    state.setCurrentModel('smart');
    assert.equal(state.transcript.models?.currentModelId, 'smart');
  });

  it('filters http/sse MCP servers and prompt content by the agent capabilities', async () => {
    const harness = start(['--minimal-caps']);
    await harness.conn.initialize({ clientInfo: CLIENT_INFO });
    const session = await harness.conn.newSession({
      cwd: '/w',
      additionalDirectories: ['/other'],
      mcpServers: [
        { name: 'local', command: 'mcp', args: [], env: [] },
        { type: 'http', name: 'remote', url: 'https://x', headers: [] },
        { type: 'sse', name: 'events', url: 'https://y', headers: [] },
      ],
    });
    const params = (harness.sent.find((e) => e.method === 'session/new')!.json as { params: Record<string, unknown> }).params;
    assert.deepEqual(params.mcpServers, [{ name: 'local', command: 'mcp', args: [], env: [] }]);
    assert.equal(params.additionalDirectories, undefined);
    assert.ok(harness.logger.lines.some((l) => l.includes('"remote" (http)')));
    await assert.rejects(harness.conn.prompt(session.sessionId, [text('x'), { type: 'image', mimeType: 'image/png', data: 'AA==' }]), (e: unknown) => e instanceof UnsupportedPromptContentError && e.blockTypes.join() === 'image');
    const resource = { type: 'resource' as const, resource: { uri: 'file:///w/dir/a%20b.ts', text: 'x' } };
    await assert.rejects(harness.conn.prompt(session.sessionId, [resource]), UnsupportedPromptContentError);
    await harness.conn.prompt(session.sessionId, [text('hi'), resource], { downgradeResources: true });
    const prompt = harness.sent.filter((e) => e.method === 'session/prompt').pop()!;
    assert.deepEqual((prompt.json as { params: { prompt: unknown[] } }).params.prompt[1], { type: 'resource_link', uri: 'file:///w/dir/a%20b.ts', name: 'a b.ts' });
    await assert.rejects(harness.conn.listSessions(), CapabilityNotSupportedError);
    await assert.rejects(harness.conn.loadSession('x', { cwd: '/' }), CapabilityNotSupportedError);
    await assert.rejects(harness.conn.logout(), CapabilityNotSupportedError);
  });

  it('every wait can be cancelled: timeouts and AbortSignal on a slow-starting agent', async () => {
    start(['--slow-start=1500']);
    await assert.rejects(h.conn.initialize({ clientInfo: CLIENT_INFO }, { timeoutMs: 100 }), TimeoutError);
    const controller = new AbortController();
    const pending = h.conn.initialize({ clientInfo: CLIENT_INFO }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, AbortedError);
    const result = await h.conn.initialize({ clientInfo: CLIENT_INFO });
    assert.equal(result.protocolVersion, 1, 'the connection still works after abandoned waits');
    assert.ok(h.sent.some((e) => e.method === '$/cancel_request'), 'abandoned requests are cancelled on the wire');
  });
});
