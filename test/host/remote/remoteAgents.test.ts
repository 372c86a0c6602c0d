// Remote agents through the real session layer: `switchboard.agents` entries with `url`, served by the
// SDK's experimental server hosting our fake agent on 127.0.0.1. A whole turn over Streamable HTTP and
// over WebSocket (with an fs request answered by our bridge), the server killed mid-turn (the turn ends
// as an error, the transcript stays, Switchboard reconnects), a dropped connection whose session comes
// back with session/load, a 401, a URL that does not answer, malformed frames, and a credential over
// plain http to a non-loopback address (refused before any connection).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { SwitchboardApi } from '../../../src/extension';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { api, prompt, textOf, transcriptOf, waitForAgentStatus } from '../integration/helpers';
import { startAcpServer as startServer, type AcpTestServer as RemoteServer } from '../../fixtures/remote/acpServer';

describe('remote agents (Streamable HTTP and WebSocket)', function () {
  this.timeout(120_000);
  let sb: SwitchboardApi;
  let restore: (() => Promise<void>) | undefined;
  const servers: RemoteServer[] = [];

  const useAgents = async (agents: Record<string, unknown>) => {
    await restore?.();
    restore = await setSettings({ 'switchboard.agents': agents });
    await waitFor(() => Object.keys(agents).every((name) => sb.backend.agents.views().some((a) => a.id === name)), 'the remote agents');
  };
  const server = async (options: string[] = [], agentArgs: string[] = []) => {
    const s = await startServer(options, agentArgs);
    servers.push(s);
    return s;
  };
  const agentView = (name: string) => sb.backend.agents.views().find((a) => a.id === name);
  const agentText = (sessionId: string) =>
    transcriptOf(sb, sessionId)
      .items.filter((i) => i.kind === 'agent_message')
      .map(textOf)
      .join('\n');

  before(async () => {
    sb = await api();
  });

  afterEach(async () => {
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    for (const s of servers.splice(0)) await s.kill();
  });

  after(async () => {
    await restore?.();
  });

  for (const kind of ['http', 'ws'] as const) {
    it(`a whole turn over ${kind === 'http' ? 'Streamable HTTP' : 'WebSocket'}: streaming, and fs requests answered by the editor`, async () => {
      const s = await server();
      const name = `Remote ${kind}`;
      await useAgents({ [name]: { url: s[kind] } });
      const id = await sb.backend.lifecycle.open(name);
      await sb.backend.sessions.require(id).prompt(prompt('hello remote'));
      assert.match(agentText(id), /echo: hello remote/);
      assert.strictEqual(agentView(name)?.remote, true);
      const file = path.join(workspaceRoot(), `remote-${kind}.txt`);
      fs.writeFileSync(file, 'from the workspace');
      try {
        await sb.backend.sessions.require(id).prompt(prompt(`fs ${file}`));
        await waitFor(() => fs.existsSync(`${file}.out`) && fs.readFileSync(`${file}.out`, 'utf8') === 'FROM THE WORKSPACE', 'the agent to write through the fs bridge');
      } finally {
        fs.rmSync(file, { force: true });
        fs.rmSync(`${file}.out`, { force: true });
      }
    });
  }

  it('the server killed mid-turn: the turn ends as an error, the transcript stays, Switchboard reconnects when it is back', async () => {
    const s = await server();
    await useAgents({ Killed: { url: s.ws } });
    const id = await sb.backend.lifecycle.open('Killed');
    const turn = sb.backend.sessions.require(id).prompt(prompt('never-cancel'));
    await waitFor(() => agentText(id).includes('working forever'), 'the turn to start');
    await s.kill();
    await turn;
    // The banner says what happened and that it is retrying (the attempt number moves on while it fails).
    await waitFor(
      () => /^Lost the connection to 127\.0\.0\.1:\d+ \(the connection broke off\)\. Reconnecting in \d+ s \(attempt 1 of 6\)…$/.test(agentView('Killed')?.crash?.message ?? ''),
      'the lost connection in the banner',
    );
    const items = transcriptOf(sb, id).items;
    assert.ok(items.some((i) => i.kind === 'user_message' && textOf(i) === 'never-cancel'), 'the prompt stays');
    assert.match(agentText(id), /working forever/);
    assert.ok(items.some((i) => i.kind === 'error' && /Lost the connection/.test(JSON.stringify(i))), JSON.stringify(items.map((i) => i.kind)));
    assert.strictEqual(sb.backend.sessions.snapshots().find((x) => x.view.sessionId === id)?.view.turn, 'idle');
    // The server comes back on the same port: the next attempt connects, and the session works again.
    const back = await server([`--port=${s.port}`]);
    assert.strictEqual(back.port, s.port);
    await waitForAgentStatus(sb, 'Killed', 'ready', 30_000);
    await sb.backend.sessions.require(id).prompt(prompt('hello again'));
    assert.match(agentText(id), /echo: hello again/);
  });

  it('a dropped connection: the session comes back with session/load on the next message, its replay not shown again', async () => {
    // The agent offers no session/resume, and the session's stream runs late, so the server's answer to
    // session/load overtakes the replay it sent first.
    const s = await server(['--shared-agent', '--slow-session-stream=20'], ['--no-resume']);
    await useAgents({ Dropped: { url: s.http } });
    const id = await sb.backend.lifecycle.open('Dropped');
    await sb.backend.sessions.require(id).prompt(prompt('first'));
    await s.drop();
    await waitFor(() => agentView('Dropped')?.status === 'crashed' && /Lost the connection/.test(agentView('Dropped')?.crash?.message ?? ''), 'the drop to show');
    await waitForAgentStatus(sb, 'Dropped', 'ready', 30_000);
    await sb.backend.sessions.require(id).prompt(prompt('second'));
    assert.match(agentText(id), /echo: second/);
    assert.strictEqual(agentText(id).match(/echo: first/g)?.length, 1, `the first answer once:\n${agentText(id)}`);
    const all = JSON.stringify(transcriptOf(sb, id).items);
    assert.ok(!/started a new session/.test(all), 'the agent loaded the same session');
  });

  it('a 401: the chat says the server refused the credentials', async () => {
    const s = await server(['--token=sesame']);
    await useAgents({ Locked: { url: s.ws, headers: { Authorization: 'Bearer wrong' } }, Open: { url: s.http, headers: { Authorization: 'Bearer sesame' } } });
    await assert.rejects(sb.backend.lifecycle.open('Locked'), /refused the credentials \(HTTP 401 Unauthorized: a valid bearer token is required\)/);
    const view = agentView('Locked')!;
    assert.strictEqual(view.status, 'crashed');
    assert.match(view.crash!.message, /refused the credentials/);
    const id = await sb.backend.lifecycle.open('Open');
    await sb.backend.sessions.require(id).prompt(prompt('authorized'));
    assert.match(agentText(id), /echo: authorized/);
  });

  it('a URL that does not answer, and a server that sends malformed frames', async () => {
    const gone = await server();
    await gone.kill();
    const bad = await server(['--malformed']);
    await useAgents({ Nowhere: { url: gone.http }, Garbled: { url: bad.ws } });
    await assert.rejects(sb.backend.lifecycle.open('Nowhere'), new RegExp(`127\\.0\\.0\\.1:${gone.port} does not answer \\(ECONNREFUSED\\)`));
    assert.match(agentView('Nowhere')!.crash!.message, /does not answer/);
    const id = await sb.backend.lifecycle.open('Garbled');
    await sb.backend.sessions.require(id).prompt(prompt('through the noise'));
    assert.match(agentText(id), /echo: through the noise/);
    assert.strictEqual(agentView('Garbled')?.status, 'ready');
  });

  it('a credential over plain http to a non-loopback address is refused before any connection', async () => {
    // 192.0.2.1 is TEST-NET-1: never routed. The refusal comes from the URL and headers alone.
    await useAgents({ Cleartext: { url: 'http://192.0.2.1:9/acp', headers: { Authorization: 'Bearer ${secret}' } } });
    await assert.rejects(sb.backend.lifecycle.open('Cleartext'), /Refused to send credentials \("Authorization"\) over plain http to 192\.0\.2\.1:9.*Use https:\/\//);
    const view = agentView('Cleartext')!;
    assert.strictEqual(view.status, 'crashed');
    assert.match(view.crash!.message, /Refused to send credentials/);
  });
});
