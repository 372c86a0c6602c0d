// Every sign-in method type an agent can advertise, finished end to end: the request that needed
// sign-in is retried afterwards. The fake agent answers -32000 until signed in.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SwitchboardApi } from '../../../src/extension';
import { setSettings, waitFor } from '../index';
import { api, fakeAgent, waitForAgentStatus } from './helpers';

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
        'Auth Env': { command: 'node', args: [fakeAgent, '--auth-required'] },
      },
    });
    await waitFor(() => sb.backend.getAgents().some((a) => a.id === 'Auth Env'), 'the auth agents');
  });

  after(async () => {
    sb.backend.authUi = { showInputBox: async () => undefined };
    for (const s of sb.backend.getSessions()) await sb.backend.closeSession(s.view.sessionId);
    await sb.backend.logout('Auth Env').catch(() => undefined);
    await restore();
    fs.rmSync(loginFile, { force: true });
  });

  it('terminal: runs the agent with the method\'s args and env in a VS Code terminal, then retries', async () => {
    await assert.rejects(sb.backend.newSession('Auth Terminal'), /auth/i);
    await waitForAgentStatus(sb, 'Auth Terminal', 'auth_required');
    const before = sb.backend.getSessions().length;
    await sb.backend.authenticate('Auth Terminal', 'terminal-login');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(loginFile, 'utf8')), { LOGIN: '1' }, 'the login ran with the env the method asked for');
    await waitFor(() => sb.backend.getSessions().length === before + 1, 'the retried session/new');
    await waitForAgentStatus(sb, 'Auth Terminal', 'ready');
  });

  it('env_var: asks for the variable, keeps it in secret storage, restarts the agent with it, then retries', async () => {
    await assert.rejects(sb.backend.newSession('Auth Env'), /auth/i);
    await waitForAgentStatus(sb, 'Auth Env', 'auth_required');
    const asked: string[] = [];
    sb.backend.authUi = {
      showInputBox: async (options) => {
        asked.push(`${options.prompt} password=${String(options.password)}`);
        return 'fake-key-123';
      },
    };
    const before = sb.backend.getSessions().length;
    await sb.backend.authenticate('Auth Env', 'api-key');
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0], /FAKE_API_KEY.*password=true/);
    await waitFor(() => sb.backend.getSessions().length === before + 1, 'the retried session/new');
    // A later start of the agent gets the key again from secret storage (no prompt).
    sb.backend.authUi = { showInputBox: async () => assert.fail('must not ask again') };
    await sb.backend.restartAgent('Auth Env');
    const id = await sb.backend.newSession('Auth Env');
    assert.ok(id);
  });
});
