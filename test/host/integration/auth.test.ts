// Every sign-in method type an agent can advertise, finished end to end: what needed sign-in (a New
// session, a message, both asked for through the chat) goes afterwards. The fake agent answers -32000
// until signed in.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SwitchboardApi } from '../../../src/extension';
import { setSettings, waitFor } from '../index';
import { api, fakeAgent, prompt, textOf, transcriptOf, waitForAgentStatus } from './helpers';

describe('sign-in flows', function () {
  this.timeout(90_000);
  let sb: SwitchboardApi;
  let restore: () => Promise<void>;
  const loginFile = path.join(os.tmpdir(), `switchboard-fake-login-${process.pid}.json`);

  before(async () => {
    sb = await api();
    fs.rmSync(loginFile, { force: true });
    restore = await setSettings({
      'switchboard.agents': {
        'Auth Terminal': { command: 'node', args: [fakeAgent, '--auth-required'], env: { FAKE_LOGIN_FILE: loginFile } },
        'Auth Terminal Fails': { command: 'node', args: [fakeAgent, '--auth-required'], env: { FAKE_LOGIN_EXIT: '3' } },
        'Auth Env': { command: 'node', args: [fakeAgent, '--auth-required'] },
        'Auth Prompt': { command: 'node', args: [fakeAgent, '--auth-required'] },
      },
    });
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Auth Env'), 'the auth agents');
  });

  after(async () => {
    sb.backend.agents.authUi = { showInputBox: async () => undefined };
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
    await sb.backend.agents.logout('Auth Env').catch(() => undefined);
    await restore();
    fs.rmSync(loginFile, { force: true });
  });

  // The fake agent refuses `authenticate` with its terminal method (the schema says a client MUST NOT).
  it("terminal: runs the agent with the method's args and env in a VS Code terminal; exit 0 retries, never authenticate", async () => {
    await assert.rejects(sb.chat.controller.newSession('Auth Terminal'), /auth/i);
    await waitForAgentStatus(sb, 'Auth Terminal', 'auth_required');
    const before = sb.backend.sessions.snapshots().length;
    await sb.backend.agents.authenticate('Auth Terminal', 'terminal-login');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(loginFile, 'utf8')), { LOGIN: '1' }, 'the login ran with the env the method asked for');
    await waitFor(() => sb.backend.sessions.snapshots().length === before + 1, 'the retried session/new');
    await waitForAgentStatus(sb, 'Auth Terminal', 'ready');
  });

  it('terminal: a login that exits non-zero says sign-in failed in the banner and keeps the methods', async () => {
    await assert.rejects(sb.chat.controller.newSession('Auth Terminal Fails'), /auth/i);
    await waitForAgentStatus(sb, 'Auth Terminal Fails', 'auth_required');
    const before = sb.backend.sessions.snapshots().length;
    await sb.backend.agents.authenticate('Auth Terminal Fails', 'terminal-login');
    const agent = sb.backend.agents.views().find((a) => a.id === 'Auth Terminal Fails')!;
    assert.strictEqual(agent.status, 'auth_required');
    assert.match(agent.authError ?? '', /exited with code 3: sign-in failed/);
    assert.deepStrictEqual(agent.authMethods?.map((m) => m.id), ['agent-login', 'terminal-login', 'api-key']);
    assert.strictEqual(agent.afterSignIn, 'starts the session');
    assert.strictEqual(sb.backend.sessions.snapshots().length, before, 'nothing was retried');
  });

  it('env_var: asks for the variable, keeps it in secret storage, restarts the agent with it, then retries', async () => {
    await assert.rejects(sb.chat.controller.newSession('Auth Env'), /auth/i);
    await waitForAgentStatus(sb, 'Auth Env', 'auth_required');
    const asked: string[] = [];
    sb.backend.agents.authUi = {
      showInputBox: async (options) => {
        asked.push(`${options.prompt} password=${String(options.password)}`);
        return 'fake-key-123';
      },
    };
    const before = sb.backend.sessions.snapshots().length;
    await sb.backend.agents.authenticate('Auth Env', 'api-key');
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0], /FAKE_API_KEY.*password=true/);
    await waitFor(() => sb.backend.sessions.snapshots().length === before + 1, 'the retried session/new');
    // A later start of the agent gets the key again from secret storage (no prompt).
    sb.backend.agents.authUi = { showInputBox: async () => assert.fail('must not ask again') };
    await sb.backend.agents.restart('Auth Env');
    const id = await sb.backend.lifecycle.open('Auth Env');
    assert.ok(id);
  });

  it('agent: a prompt refused for sign-in is sent again after signing in, and shown once', async () => {
    await assert.rejects(sb.chat.controller.newSession('Auth Prompt'), /auth/i);
    const before = sb.backend.sessions.snapshots().length;
    await sb.backend.agents.authenticate('Auth Prompt', 'agent-login');
    await waitFor(() => sb.backend.sessions.snapshots().length === before + 1, 'the retried session/new');
    const sessionId = sb.backend.sessions.snapshots().at(-1)!.view.sessionId;
    // Signed out at the agent: the next prompt answers -32000.
    await sb.backend.agents.logout('Auth Prompt');
    sb.chat.controller.handleMessage({ type: 'prompt', sessionId, prompt: prompt('hello after sign-in') });
    await waitForAgentStatus(sb, 'Auth Prompt', 'auth_required');
    await waitFor(() => sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId)?.view.turn === 'idle', 'the turn to stop for sign-in');
    const refused = sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId)!;
    assert.match(refused.view.error?.message ?? '', /sign in.*sent again/);
    await sb.backend.agents.authenticate('Auth Prompt', 'agent-login');
    await waitFor(() => transcriptOf(sb, sessionId).items.some((i) => i.kind === 'turn_end' && i.stopReason === 'end_turn'), 'the retried turn');
    const items = transcriptOf(sb, sessionId).items;
    const prompts = items.filter((i) => i.kind === 'user_message').map(textOf);
    assert.deepStrictEqual(prompts, ['hello after sign-in'], 'the prompt is in the transcript once');
    assert.ok(items.some((i) => i.kind === 'agent_message'), 'the agent answered the retried prompt');
  });
});
