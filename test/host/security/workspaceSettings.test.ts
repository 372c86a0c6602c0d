// Powerful settings from a workspace wait for the user's confirmation. A gate is built here on the real
// configuration API with a scripted answer in place of the notification (the real notification's buttons
// are clicked in test/e2e/security.test.ts); the extension's own gate is checked to hold the same values back.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { PermissionBroker } from '../../../src/host/permissions/permissionBroker';
import { ALLOW, IGNORE, WorkspaceSettingsGate } from '../../../src/host/permissions/workspaceSettingsGate';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { api, fakeAgent, prompt, stopAgent } from '../integration/helpers';
import { keepFile } from './helpers';

class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

/** Records each question; answers with the next scripted choice (undefined = left unanswered for now). */
class ScriptedPrompt {
  readonly asked: string[] = [];
  private readonly waiting: ((choice: string | undefined) => void)[] = [];
  readonly prompt = (message: string): Thenable<string | undefined> => {
    this.asked.push(message);
    return new Promise((resolve) => this.waiting.push(resolve));
  };
  answer(choice: string | undefined): void {
    const next = this.waiting.shift();
    assert.ok(next, 'a question is waiting');
    next(choice);
  }
}

/** Lets a question in flight (its text loads with a dynamic import: promise jobs only) reach the prompt. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const log = vscode.window.createOutputChannel('Switchboard security test', { log: true });

function writeWorkspaceSettings(file: string, value: Record<string, unknown> | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

async function workspaceValueIs(key: string, expected: unknown): Promise<void> {
  await waitFor(
    () => JSON.stringify(vscode.workspace.getConfiguration('switchboard').inspect(key)?.workspaceValue) === JSON.stringify(expected),
    `VS Code to read switchboard.${key} = ${JSON.stringify(expected)} from the workspace`,
    30_000,
  );
}

const request = (kind: string) => ({
  sessionId: 's',
  toolCall: { toolCallId: `t-${kind}`, title: `Run ${kind}`, kind: kind as 'execute' },
  options: [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' as const },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
  ],
});

describe('security: workspace settings wait for the user', function () {
  this.timeout(120_000);
  let sb: SwitchboardApi;
  let settingsFile: string;
  let restoreFile: () => void;
  const gates: vscode.Disposable[] = [];

  before(async () => {
    sb = await api();
    settingsFile = path.join(workspaceRoot(), '.vscode', 'settings.json');
    restoreFile = keepFile(settingsFile);
  });
  afterEach(() => {
    for (const g of gates.splice(0)) g.dispose();
  });
  after(async () => {
    restoreFile();
    await sb.workspaceSettings.revoke();
  });

  it('a workspace opened with autoApprove: asked with what it grants; nothing applies before; Ignore keeps asking; Allow applies; a change asks again', async () => {
    writeWorkspaceSettings(settingsFile, { 'switchboard.autoApprove': { execute: true, edit: true } });
    await workspaceValueIs('autoApprove', { execute: true, edit: true });

    // The extension's own gate: nobody answered its notification, so its permission requests still ask.
    assert.deepStrictEqual(sb.workspaceSettings.autoApproveLayers().map((l) => l.source), ['user']);

    const ignored = new ScriptedPrompt();
    const memento = new MemoryMemento();
    const first = new WorkspaceSettingsGate({ memento, log, prompt: ignored.prompt });
    gates.push(first);
    await waitFor(() => ignored.asked.length > 0, 'the question');
    assert.deepStrictEqual(ignored.asked, ['This workspace asks to auto-approve: execute, edit for every agent.']);
    const broker = new PermissionBroker({ presenters: [{ present: async () => 'reject' }], getAutoApproveLayers: () => first.autoApproveLayers() });
    gates.push(broker);
    assert.strictEqual((await broker.request(request('execute'), { agentName: 'Fake Agent' })).via, 'user', 'nothing is auto-approved before the answer');
    ignored.answer(IGNORE);
    await waitFor(() => memento.keys().length > 0, 'the answer to be kept');
    assert.strictEqual((await broker.request(request('execute'), { agentName: 'Fake Agent' })).via, 'user', 'Ignore keeps asking');
    // Ignore is remembered for this value: the next window does not ask again.
    const again = new ScriptedPrompt();
    gates.push(new WorkspaceSettingsGate({ memento, log, prompt: again.prompt }));
    await settled();
    assert.deepStrictEqual(again.asked, []);

    const allowing = new ScriptedPrompt();
    const allowedMemento = new MemoryMemento();
    const gate = new WorkspaceSettingsGate({ memento: allowedMemento, log, prompt: allowing.prompt });
    gates.push(gate);
    const changed = new Promise<void>((resolve) => gates.push(gate.onDidChange(() => resolve())));
    await waitFor(() => allowing.asked.length === 1, 'the question');
    allowing.answer(ALLOW);
    await changed;
    const allowedBroker = new PermissionBroker({ presenters: [{ present: async () => 'reject' }], getAutoApproveLayers: () => gate.autoApproveLayers() });
    gates.push(allowedBroker);
    const auto = await allowedBroker.request(request('execute'), { agentName: 'Fake Agent' });
    assert.strictEqual(auto.via, 'auto', 'Allow applies');
    assert.match(auto.autoApproved?.description ?? '', /switchboard\.autoApprove in workspace settings you confirmed/);
    assert.strictEqual((await allowedBroker.request(request('delete'), { agentName: 'Fake Agent' })).via, 'user', 'only what was shown is granted');

    // A later change asks again, and until then the changed value does not apply.
    writeWorkspaceSettings(settingsFile, { 'switchboard.autoApprove': { execute: true, edit: true, '*': true } });
    await workspaceValueIs('autoApprove', { execute: true, edit: true, '*': true });
    await waitFor(() => allowing.asked.length === 2, 'the changed value to be asked about');
    assert.match(allowing.asked[1], /auto-approve: execute, edit, every tool \(\*\) for every agent/);
    assert.strictEqual((await allowedBroker.request(request('execute'), { agentName: 'Fake Agent' })).via, 'user', 'the changed value waits');

    // Forgetting: the command's work. Asked again about the current value.
    await gate.revoke();
    await waitFor(() => allowing.asked.length === 3, 'the question again after Forget');
  });

  it('fileAccess "allow" from the workspace waits; "deny" applies at once', async () => {
    writeWorkspaceSettings(settingsFile, { 'switchboard.fileAccess': 'allow' });
    await workspaceValueIs('fileAccess', 'allow');
    const scripted = new ScriptedPrompt();
    const gate = new WorkspaceSettingsGate({ memento: new MemoryMemento(), log, prompt: scripted.prompt });
    gates.push(gate);
    assert.strictEqual(gate.effective('fileAccess'), undefined);
    await waitFor(() => scripted.asked.length === 1, 'the question');
    assert.match(scripted.asked[0], /read and write any file outside the session's folders without asking/);
    assert.strictEqual(sb.workspaceSettings.effective('fileAccess'), undefined, "the extension's gate holds it back too");
    writeWorkspaceSettings(settingsFile, { 'switchboard.fileAccess': 'deny' });
    await workspaceValueIs('fileAccess', 'deny');
    assert.strictEqual(gate.effective('fileAccess'), 'deny');
    await settled();
    assert.strictEqual(scripted.asked.length, 1, 'restricting asks nothing');
  });

  it('bad input: a settings file with invalid JSON, and a huge one, grant nothing and break nothing', async () => {
    // followAgent is not gated: seeing it tells that VS Code's lenient parser read what it could.
    writeWorkspaceSettings(settingsFile, '{ "switchboard.followAgent": true, "switchboard.autoApprove": { "*": true }, "switchboard.fileAccess": "allow", oops');
    await waitFor(() => vscode.workspace.getConfiguration('switchboard').inspect('followAgent')?.workspaceValue === true, 'VS Code to read the broken file', 30_000);
    assert.deepStrictEqual(sb.workspaceSettings.autoApproveLayers().map((l) => l.source), ['user']);
    assert.notStrictEqual(sb.workspaceSettings.effective('fileAccess'), 'allow');
    assert.ok(sb.backend.agents.views().length > 0, 'the agents are still listed');

    const padding: Record<string, string> = {};
    for (let i = 0; i < 20_000; i++) padding[`huge.setting${i}`] = 'x'.repeat(200);
    writeWorkspaceSettings(settingsFile, { ...padding, 'switchboard.autoApprove': { '*': true } });
    assert.ok(fs.statSync(settingsFile).size > 4_000_000);
    await workspaceValueIs('autoApprove', { '*': true });
    assert.deepStrictEqual(sb.workspaceSettings.autoApproveLayers().map((l) => l.source), ['user']);
    const broker = new PermissionBroker({ presenters: [{ present: async () => 'reject' }], getAutoApproveLayers: () => sb.workspaceSettings.autoApproveLayers() });
    gates.push(broker);
    assert.strictEqual((await broker.request(request('execute'), { agentName: 'Fake Agent' })).via, 'user');
  });

  describe('workspace-defined agents and MCP servers', () => {
    let restoreUser: () => Promise<void>;
    let record: string;

    before(async () => {
      record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-mcp-')), 'requests.jsonl');
      // The user's own agent records what it is started with.
      restoreUser = await setSettings({ 'switchboard.agents': { 'User Fake': { command: 'node', args: [fakeAgent, `--record=${record}`] } } });
      await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'User Fake'), 'the user agent');
    });
    after(async () => {
      for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);
      await stopAgent(sb, 'User Fake');
      await restoreUser();
    });

    const mcpServersSent = (): string[] =>
      fs
        .readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { method: string; params: { mcpServers?: { name: string }[] } })
        .filter((r) => r.method === 'session/new')
        // Without the IDE tools' own server, given to every session.
        .map((r) => (r.params.mcpServers ?? []).map((s) => s.name).filter((n) => n !== 'switchboard').join(','));

    it('are confirmed before their first start', async () => {
      const agents = { 'Workspace Fake': { command: 'node', args: [fakeAgent] } };
      const mcpServers = { 'workspace-mcp': { command: 'node', args: ['-e', '0'] } };
      writeWorkspaceSettings(settingsFile, { 'switchboard.agents': agents, 'switchboard.mcpServers': mcpServers, 'switchboard.defaultAgent': 'Workspace Fake' });
      await workspaceValueIs('agents', agents);
      await workspaceValueIs('mcpServers', mcpServers);
      await workspaceValueIs('defaultAgent', 'Workspace Fake');
      sb.configuration.refresh();
      assert.ok(!sb.backend.agents.views().some((a) => a.id === 'Workspace Fake'), 'the workspace agent is not offered before the user confirms it');
      assert.ok(sb.backend.agents.views().some((a) => a.id === 'User Fake'), "the user's agents are");
      assert.notStrictEqual(sb.configuration.snapshot.defaultAgent, 'Workspace Fake', 'a workspace default naming it waits too');

      const id = await sb.backend.lifecycle.open('User Fake');
      await sb.backend.sessions.require(id).prompt(prompt('hello'));
      assert.deepStrictEqual(mcpServersSent().slice(-1), [''], 'the workspace MCP server is not started before the user confirms it');

      // The notification's Allow (clicked in the e2e test) does this.
      await sb.workspaceSettings.decide('agents', agents, true);
      await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Workspace Fake'), 'the confirmed workspace agent in the picker');
      assert.strictEqual(sb.configuration.snapshot.defaultAgent, 'Workspace Fake');
      await sb.workspaceSettings.decide('mcpServers', mcpServers, true);
      await sb.backend.lifecycle.open('User Fake');
      assert.deepStrictEqual(mcpServersSent().slice(-1), ['workspace-mcp'], 'the confirmed MCP server is passed');

      // A changed definition asks again: until then the agent is gone.
      const changed = { 'Workspace Fake': { command: 'node', args: [fakeAgent, '--minimal-caps'] } };
      writeWorkspaceSettings(settingsFile, { 'switchboard.agents': changed, 'switchboard.mcpServers': mcpServers });
      await workspaceValueIs('agents', changed);
      await waitFor(() => !sb.backend.agents.views().some((a) => a.id === 'Workspace Fake'), 'the changed workspace agent to wait for confirmation');

      await vscode.commands.executeCommand('switchboard.revokeWorkspaceSettings');
      await sb.backend.lifecycle.open('User Fake');
      assert.deepStrictEqual(mcpServersSent().slice(-1), [''], 'forgotten: the MCP server waits again');
    });

    it("a .vscode/mcp.json the agent could have written is passed on only once confirmed, even with the user's useVSCodeMcpServers", async () => {
      const mcpJson = path.join(workspaceRoot(), '.vscode', 'mcp.json');
      const restoreMcpJson = keepFile(mcpJson);
      const restoreUse = await setSettings({ 'switchboard.useVSCodeMcpServers': true });
      try {
        writeWorkspaceSettings(settingsFile, {});
        fs.writeFileSync(mcpJson, JSON.stringify({ servers: { 'mcp-json-server': { command: 'node', args: ['-e', '0'] } } }));
        await sb.backend.lifecycle.open('User Fake');
        assert.deepStrictEqual(mcpServersSent().slice(-1), [''], 'not passed before the user confirms it');
        await sb.workspaceSettings.decide('vscodeMcpServers', [{ name: 'mcp-json-server', command: 'node', args: ['-e', '0'], env: [] }], true);
        await sb.backend.lifecycle.open('User Fake');
        assert.deepStrictEqual(mcpServersSent().slice(-1), ['mcp-json-server'], 'passed once confirmed');
      } finally {
        await restoreUse();
        restoreMcpJson();
        await sb.workspaceSettings.revoke();
      }
    });
  });
});
