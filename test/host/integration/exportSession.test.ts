// "Switchboard: Export Session as Markdown" through the real command and backend: the active session's whole
// transcript opens as an untitled Markdown document; with no session open it says so and opens nothing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { prompt, withFakeAgents } from './helpers';

describe('export session as Markdown', function () {
  this.timeout(90_000);
  const context = withFakeAgents({ Exporter: [] });

  it('opens the active session as an untitled Markdown document with every message and tool call', async () => {
    const id = await context.sb.backend.lifecycle.open('Exporter');
    await context.sb.backend.sessions.require(id).prompt(prompt('hello there'));
    await context.sb.backend.sessions.require(id).prompt(prompt('variants'));
    assert.strictEqual(context.sb.backend.sessions.activeTabId(), id);
    await vscode.commands.executeCommand('switchboard.exportSession');
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc, 'an editor opened');
    assert.strictEqual(doc.isUntitled, true);
    assert.strictEqual(doc.languageId, 'markdown');
    const text = doc.getText();
    for (const piece of ['## You', 'hello there', '## Exporter', 'echo: hello there', 'variants', '### Tool:']) assert.ok(text.includes(piece), `has ${piece}:\n${text}`);
    assert.ok(text.indexOf('hello there') < text.indexOf('echo: hello there'), 'in transcript order');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
