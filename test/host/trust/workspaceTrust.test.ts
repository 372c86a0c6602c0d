// Workspace trust: an agent is a program, so agent definitions from an untrusted workspace's settings
// are ignored (with an explanation); in a trusted workspace they are used once the user confirmed them. The host runner runs this
// file once more with workspace trust enabled (the workspace is then untrusted).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { waitFor, workspaceRoot } from '../index';
import { api } from '../integration/helpers';

describe('workspace trust', function () {
  this.timeout(60_000);
  let settingsFile: string;
  let hadFile = false;
  let previous = '';

  before(() => {
    settingsFile = path.join(workspaceRoot(), '.vscode', 'settings.json');
    hadFile = fs.existsSync(settingsFile);
    if (hadFile) previous = fs.readFileSync(settingsFile, 'utf8');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(
      settingsFile,
      '{\n  // an agent defined by the workspace\n  "switchboard.agents": { "Workspace Agent": { "command": "node", "args": ["-e", "0"] } },\n}\n',
    );
  });

  after(() => {
    if (hadFile) fs.writeFileSync(settingsFile, previous);
    else fs.rmSync(settingsFile, { force: true });
  });

  it(vscode.workspace.isTrusted ? 'uses agents from trusted workspace settings once the user confirmed them' : 'ignores agents from untrusted workspace settings, with an explanation', async () => {
    const sb = await api();
    if (vscode.workspace.isTrusted) {
      const value = await waitFor(() => {
        const v = vscode.workspace.getConfiguration('switchboard').inspect<Record<string, unknown>>('agents')?.workspaceValue;
        return v && 'Workspace Agent' in v ? v : undefined;
      }, 'VS Code to read the workspace settings', 30_000);
      sb.configuration.refresh();
      assert.ok(!sb.backend.agents.views().some((a) => a.id === 'Workspace Agent'), 'not before the user confirmed it');
      // The notification's Allow does this.
      await sb.workspaceSettings.decide('agents', value, true);
      await waitFor(() => sb.backend.agents.views().some((a) => a.id === 'Workspace Agent'), 'the workspace agent in the picker');
      assert.strictEqual(sb.configuration.snapshot.ignoredUntrustedWorkspaceAgents, false);
      await sb.workspaceSettings.revoke();
    } else {
      await new Promise((r) => setTimeout(r, 1500)); // give a settings reload time to happen
      sb.configuration.refresh();
      assert.ok(!sb.backend.agents.views().some((a) => a.id === 'Workspace Agent'), 'the workspace agent must be ignored');
      assert.strictEqual(sb.configuration.snapshot.ignoredUntrustedWorkspaceAgents, true);
      // Presets and user agents still work.
      assert.ok(sb.backend.agents.views().some((a) => a.id === 'Claude Agent'));
    }
  });
});
