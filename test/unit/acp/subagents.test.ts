// Subagents in the protocol engine: the capability we advertise, `subagent_update` read field by field, the
// per-connection routes of child sessions (updates and requests), and `session/cancel` on a child. Against
// the fake agent's `subagent` scenario (the shapes claude-agent-acp 0.101 sends); every message sent and
// received is checked against schema.unstable.json.
import * as assert from 'node:assert/strict';
import { parseSessionUpdate, type SessionNotification } from '../../../src/acp';
import { SubagentRoutes } from '../../../src/acp/connection/subagentRoutes';
import { CLIENT_INFO, text } from './helpers';
import { schemaCheckedFakeAgents, validateReceived } from './schemaValidator';

describe('Subagents in the protocol engine (schema.unstable.json)', function () {
  this.timeout(20000);
  const start = schemaCheckedFakeAgents('schema.unstable.json');

  it('advertises subagents in initialize', async () => {
    const h = start();
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const sent = h.sent.find((e) => e.method === 'initialize')?.json as { params: { clientCapabilities: Record<string, unknown> } };
    assert.deepEqual(sent.params.clientCapabilities.subagents, {});
  });

  it('routes a child session: its updates and its permission request name the root and the path; cancel goes to the child', async () => {
    const h = start();
    const routes: Array<[string, unknown]> = [];
    const asked: unknown[] = [];
    h.conn.handle('session/request_permission', (params, context) => {
      asked.push([params.sessionId, context.route]);
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    });
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    h.conn.onSessionUpdate((n: SessionNotification) => routes.push([n.sessionId, n.route]));
    await h.conn.prompt(sessionId, [text('subagent')]);
    assert.deepEqual(routes.find(([id]) => id === sessionId)?.[1], { kind: 'own' });
    assert.deepEqual(routes.find(([id]) => id === 'child-1')?.[1], { kind: 'child', root: sessionId, path: ['child-1'] });
    assert.deepEqual(asked, [['child-1', { kind: 'child', root: sessionId, path: ['child-1'] }]]);
    assert.deepEqual(h.conn.subagentsOf(sessionId), ['child-1']);
    assert.deepEqual(validateReceived(h.trace, 'schema.unstable.json'), []);
  });

  it('cancels a child with session/cancel on its own id; the parent turn goes on and ends', async () => {
    const h = start();
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    const said: string[] = [];
    let running!: () => void;
    const childRuns = new Promise<void>((resolve) => (running = resolve));
    h.conn.onSessionUpdate((n) => {
      const u = n.update;
      if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') said.push(`${n.sessionId}: ${u.content.text}`);
      if (n.sessionId !== sessionId && u.sessionUpdate === 'agent_message_chunk') running();
    });
    const turn = h.conn.prompt(sessionId, [text('subagent wait')]);
    await childRuns;
    const child = h.conn.subagentsOf(sessionId)[0];
    await h.conn.cancel(child);
    assert.equal((await turn).stopReason, 'end_turn');
    assert.ok(said.includes(`${sessionId}: parent continues after the cancel`), said.join('\n'));
    const cancels = h.sent.filter((e) => e.method === 'session/cancel').map((e) => (e.json as { params: unknown }).params);
    assert.deepEqual(cancels, [{ sessionId: child }]);
  });

  it('a session no one announced is a stranger; one opened by the client is its own', async () => {
    const h = start();
    await h.conn.initialize({ clientInfo: CLIENT_INFO });
    const { sessionId } = await h.conn.newSession({ cwd: '/work' });
    const routes = new Map<string, unknown>();
    h.conn.onSessionUpdate((n) => routes.set(n.sessionId, n.route));
    await h.conn.prompt(sessionId, [text('subagent unknown')]);
    const ghost = [...routes.keys()].find((id) => id.startsWith('ghost-'));
    assert.ok(ghost);
    assert.deepEqual(routes.get(ghost), { kind: 'unknown' });
    assert.deepEqual(routes.get(sessionId), { kind: 'own' });
  });
});

describe('SubagentRoutes', () => {
  it('walks nested children up to the root, never loops, and names no stranger own unless a session is opening', async () => {
    const r = new SubagentRoutes();
    await r.opens(Promise.resolve({ sessionId: 'root' }));
    r.announce('root', 'a');
    r.announce('a', 'b');
    r.announce('other-root', 'a'); // a child never moves
    assert.deepEqual(r.routeOf('b'), { kind: 'child', root: 'root', path: ['a', 'b'] });
    assert.deepEqual(r.descendantsOf('root'), ['b', 'a']);
    r.announce('b', 'x');
    r.announce('x', 'b'); // a cycle the agent made: ignored (b already has a parent)
    assert.deepEqual(r.routeOf('x'), { kind: 'child', root: 'root', path: ['a', 'b', 'x'] });
    r.announce('root', 'root');
    assert.deepEqual(r.routeOf('root'), { kind: 'own' });
    assert.deepEqual(r.routeOf('stranger'), { kind: 'unknown' });
    let open!: (v: { sessionId: string }) => void;
    const opening = r.opens(new Promise<{ sessionId: string }>((resolve) => (open = resolve)));
    assert.deepEqual(r.routeOf('new-one'), { kind: 'own' }, 'an update may come before session/new answers');
    open({ sessionId: 'new-one' });
    await opening;
    assert.deepEqual(r.routeOf('new-one'), { kind: 'own' });
    assert.deepEqual(r.routeOf('stranger'), { kind: 'unknown' });
  });
});

describe('subagent_update parsing', () => {
  it('reads every field of the schema and claude-agent-acp 0.101 form', () => {
    const u = parseSessionUpdate({
      sessionUpdate: 'subagent_update',
      sessionId: 'c1',
      title: 'Explore',
      description: 'Explore',
      cwd: '/w',
      additionalDirectories: ['/x'],
      capabilities: { cancel: {} },
      state: { state: 'idle', stopReason: 'error', error: { code: -32603, message: 'boom' }, usage: { totalTokens: 5, inputTokens: 3, outputTokens: 2 } },
    });
    assert.deepEqual(u, {
      sessionUpdate: 'subagent_update',
      sessionId: 'c1',
      title: 'Explore',
      description: 'Explore',
      cwd: '/w',
      additionalDirectories: ['/x'],
      capabilities: { cancel: true },
      state: { state: 'idle', stopReason: 'error', error: 'boom', usage: { totalTokens: 5, inputTokens: 3, outputTokens: 2 } },
    });
  });

  it('ignores malformed fields one by one, keeps null as "clear", and needs only sessionId', () => {
    const u = parseSessionUpdate({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 42, description: null, capabilities: 'all', state: { state: 7 }, cwd: ['x'], additionalDirectories: [1, '/ok'] });
    assert.deepEqual(u, { sessionUpdate: 'subagent_update', sessionId: 'c1', description: null, additionalDirectories: ['/ok'] });
    assert.deepEqual(parseSessionUpdate({ sessionUpdate: 'subagent_update', sessionId: 'c1', capabilities: { cancel: null }, state: null }), {
      sessionUpdate: 'subagent_update',
      sessionId: 'c1',
      capabilities: { cancel: false },
      state: null,
    });
    assert.deepEqual(parseSessionUpdate({ sessionUpdate: 'subagent_update', sessionId: 'c1', state: { state: '_vendor_busy', stopReason: 'x' } }), {
      sessionUpdate: 'subagent_update',
      sessionId: 'c1',
      state: { state: '_vendor_busy' },
    });
    const broken = parseSessionUpdate({ sessionUpdate: 'subagent_update', title: 'no session id' });
    assert.equal(broken.sessionUpdate, '$unsupported');
  });
});
