// "Switchboard: New Session" through the real command (the action the registry's "Start a session" runs too):
// a named agent gets a new session, active in the chat.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { withFakeAgents } from './helpers';

describe('the New Session command', function () {
  this.timeout(90_000);
  const context = withFakeAgents({ Starter: [], 'Other Starter': [] });

  it('opens a session of the agent it names and makes it the active tab', async () => {
    const { sessions } = context.sb.backend;
    const before = new Set(sessions.values().map((s) => s.key));
    await vscode.commands.executeCommand('switchboard.newSession', 'Other Starter');
    const opened = sessions.values().filter((s) => !before.has(s.key));
    assert.strictEqual(opened.length, 1, 'one new session');
    assert.strictEqual(opened[0].agentId, 'Other Starter');
    assert.strictEqual(sessions.activeTabId(), opened[0].key);
  });
});
