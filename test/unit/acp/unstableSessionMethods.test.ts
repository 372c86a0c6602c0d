// session/fork, session/set_title, auth/status(_update) and elicitation/complete against the scripted fake
// agent. Every message the client sends is validated against schema.unstable.json (these methods are unstable).
import * as assert from 'node:assert/strict';
import { CapabilityNotSupportedError, NotFoundError, AcpRequestError, ErrorCode, type AgentAuthStatus } from '../../../src/acp';
import { CLIENT_INFO, text } from './helpers';
import { schemaCheckedFakeAgents } from './schemaValidator';

describe('Unstable session methods against the fake agent (schema.unstable.json)', function () {
  this.timeout(15000);
  const start = schemaCheckedFakeAgents('schema.unstable.json');

  it('reads the fork, title and auth.status capabilities', async () => {
    const h = start();
    const result = await h.conn.initialize({ clientInfo: CLIENT_INFO });
    assert.equal(result.agentCapabilities.sessionCapabilities.fork, true);
    assert.equal(result.agentCapabilities.sessionCapabilities.title, true);
    assert.equal(result.agentCapabilities.auth.status, true);
    const minimal = start(['--minimal-caps']);
    const none = await minimal.conn.initialize({ clientInfo: CLIENT_INFO });
    assert.equal(none.agentCapabilities.sessionCapabilities.fork, false);
    assert.equal(none.agentCapabilities.sessionCapabilities.title, false);
    await minimal.conn.newSession({ cwd: '/work' });
    await assert.rejects(minimal.conn.forkSession('sess-1', { cwd: '/work' }), CapabilityNotSupportedError);
    await assert.rejects(minimal.conn.setSessionTitle('sess-1', 'x'), CapabilityNotSupportedError);
    await assert.rejects(minimal.conn.authStatus(), CapabilityNotSupportedError);
  });

  it('forks a session into a new one with its history; a gone session is NotFound (-32002)', async () => {
    const h = start();
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    await h.conn.prompt(sessionId, [text('hello')]);
    const fork = await h.conn.forkSession(sessionId, { cwd: '/work', mcpServers: [] });
    assert.notEqual(fork.sessionId, sessionId);
    assert.equal(fork.modes?.currentModeId, 'default');
    // The fork has the source's history: loading it replays the first prompt.
    const replayed: string[] = [];
    h.conn.onSessionUpdate((n) => n.sessionId === fork.sessionId && n.update.sessionUpdate === 'user_message_chunk' && replayed.push(JSON.stringify(n.update.content)));
    await h.conn.loadSession(fork.sessionId, { cwd: '/work' });
    assert.deepEqual(replayed, [JSON.stringify(text('hello'))]);
    await assert.rejects(h.conn.forkSession('sess-gone', { cwd: '/work' }), (e: unknown) => e instanceof NotFoundError);
  });

  it('sets a title and gets the stored one back; an empty title is refused with -32602', async () => {
    const h = start();
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    assert.equal(await h.conn.setSessionTitle(sessionId, '  Refactor parser  '), 'Refactor parser');
    await assert.rejects(h.conn.setSessionTitle(sessionId, '   '), (e: unknown) => e instanceof AcpRequestError && e.code === ErrorCode.InvalidParams);
    await assert.rejects(h.conn.setSessionTitle('sess-gone', 'x'), NotFoundError);
  });

  it('delivers auth status from _auth/status_update and auth/status_update; a bad payload is logged and ignored', async () => {
    const h = start();
    const statuses: AgentAuthStatus[] = [];
    h.conn.onAuthStatus((s) => statuses.push(s));
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    await waitFor(() => statuses.length >= 1);
    assert.deepEqual(statuses[0], { signedIn: true, label: 'Fake API key', detail: 'env' });
    assert.ok(h.logger.lines.some((l) => l.startsWith('warn Ignored an invalid _auth/status_update')), h.logger.lines.join('\n'));
    assert.deepEqual(await h.conn.authStatus(), { signedIn: true, label: 'Fake Account', detail: 'fake@example.test' });
    await h.conn.logout();
    await waitFor(() => statuses.length >= 2);
    assert.deepEqual(statuses[1], { signedIn: false, label: 'Not signed in' });
  });

  it('delivers elicitation/complete for every id; the host decides what an unknown one means', async () => {
    const h = start();
    const completed: string[] = [];
    h.conn.onElicitationComplete((p) => completed.push(p.elicitationId));
    h.conn.handle('elicitation/create', async () => {
      await waitFor(() => completed.length === 2);
      return { action: 'accept' };
    });
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    await h.conn.prompt(sessionId, [text('elicit-url')]);
    assert.deepEqual(completed, ['el-unknown', 'el-url-1']);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
