// A remote agent's `${secret}` headers, on AgentRuntime with SecretStorage: asked for once, kept, sent;
// forgotten when the server refuses them (401) so the next connection asks again; never in the log.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { LoginShellEnvironmentCache, type ResolvedAgentDefinition } from '../../../src/agents';
import { AgentSecrets } from '../../../src/host/auth/agentSecrets';
import type { AuthUi } from '../../../src/host/auth/authFlow';
import { AgentRuntime } from '../../../src/host/agents/agentRuntime';
import { startAcpServer as startServer, type AcpTestServer as RemoteServer } from '../../fixtures/remote/acpServer';

class MemorySecretStorage implements vscode.SecretStorage {
  readonly values = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.emitter.event;
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

describe('remote agents: secret headers', function () {
  this.timeout(60_000);
  let server: RemoteServer;
  let runtime: AgentRuntime | undefined;
  const log = vscode.window.createOutputChannel('Switchboard remote secrets test', { log: true });
  const logged: string[] = [];

  before(async () => {
    server = await startServer(['--token=sesame']);
  });

  after(async () => {
    runtime?.dispose();
    await server.kill();
    log.dispose();
  });

  it('asks once, keeps the value in secret storage, asks again after a 401', async () => {
    const storage = new MemorySecretStorage();
    const answers = ['sesame'];
    const asked: vscode.InputBoxOptions[] = [];
    const ui: AuthUi = { showInputBox: async (o) => (asked.push(o), answers.shift()) };
    const definition: ResolvedAgentDefinition = {
      name: 'Secret Remote',
      command: '',
      args: [],
      env: {},
      source: 'settings',
      remote: { url: server.ws, headers: { Authorization: 'Bearer ${secret}' } },
    };
    const channel = new Proxy(log, {
      get: (target, key: keyof vscode.LogOutputChannel) =>
        ['info', 'warn', 'error', 'debug', 'trace'].includes(String(key))
          ? (m: string) => {
              logged.push(m);
              (target[key] as (m: string) => void).call(target, m);
            }
          : target[key],
    });
    runtime = new AgentRuntime({
      definition,
      cwd: process.cwd(),
      stderrLog: channel,
      log: channel,
      trace: () => undefined,
      shellEnvironment: new LoginShellEnvironmentCache(),
      getSecretEnv: async () => ({}),
      handlers: {},
      clientVersion: '0.0.0',
      secrets: new AgentSecrets(storage),
      secretUi: () => ui,
    });
    const first = await runtime.start();
    assert.strictEqual(first.agent?.agentInfo?.name, 'fake-agent');
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(asked[0].password, true);
    assert.ok([...storage.values.values()].includes('sesame'), 'kept in secret storage');
    // A new connection uses the kept value without asking.
    await runtime.restart();
    assert.strictEqual(asked.length, 1);
    // The server now wants another token: the kept one gets a 401, is forgotten, and Reconnect asks again.
    storage.values.forEach((value, key) => value === 'sesame' && storage.values.set(key, 'stale'));
    await assert.rejects(runtime.restart(), /refused the credentials \(HTTP 401/);
    assert.ok(![...storage.values.values()].includes('stale'), 'the refused value is forgotten');
    answers.push('sesame');
    await runtime.restart();
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(runtime.status, 'ready');
    // Cancelling the prompt says what is missing.
    storage.values.clear();
    await assert.rejects(runtime.restart(), /Secret Remote needs the "Authorization" header to connect\. Use Reconnect to enter it\./);
    assert.match(runtime.crash?.message ?? '', /needs the "Authorization" header/);
    assert.ok(!logged.some((l) => l.includes('sesame') || l.includes('stale')), 'secrets never reach the log');
  });
});
