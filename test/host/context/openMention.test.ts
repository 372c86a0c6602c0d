// Opening what a chip names, through the chat's own message as the webview posts it (the controller hands a
// chip with lines, a kind or text to the host's mention opener), in a real extension host: a file at its
// lines (from the chip's range or the URI's #L fragment), a bare file chip, text a chip carries in a
// read-only editor, and bad requests (malformed, a file that is gone, a URI that does not parse) that open
// nothing or say so, never throw.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { waitFor, workspaceRoot } from '../index';
import { withFakeAgents } from '../integration/helpers';

describe('Chips open what they name (the chat\'s openResource)', function () {
  this.timeout(120_000);
  const ctx = withFakeAgents({ 'Open Mention Agent': [] });
  let dir = '';
  let file = '';

  before(() => {
    dir = path.join(workspaceRoot(), 'open-mention-tests');
    fs.mkdirSync(dir, { recursive: true });
    file = path.join(dir, 'rows.txt');
    fs.writeFileSync(file, Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A chip clicked in the chat: the webview's message, checked by the schema and routed by the handlers. */
  const open = (chip: Record<string, unknown>) => ctx.sb.chat.controller.handleMessage({ type: 'openResource', ...chip });
  const tabLabels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
  const active = () => vscode.window.activeTextEditor;

  it("opens a file at the chip's lines, or at the lines its URI's #L fragment names", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    open({ uri: vscode.Uri.file(file).toString(), kind: 'selection', range: { startLine: 3, endLine: 5 } });
    const editor = await waitFor(() => (active()?.document.uri.fsPath === file ? active() : undefined), 'rows.txt open');
    assert.deepStrictEqual([editor.selection.start.line, editor.selection.start.character, editor.selection.end.line], [2, 0, 4]);
    assert.strictEqual(editor.selection.end.character, 'row 5'.length, 'to the end of the last line');

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    open({ uri: `${vscode.Uri.file(file).toString()}#L7`, text: 'Error at rows.txt:7', mimeType: 'text/plain' });
    const atProblem = await waitFor(() => (active()?.document.uri.fsPath === file ? active() : undefined), 'rows.txt open at the problem');
    assert.strictEqual(atProblem.selection.start.line, 6);
  });

  it('shows text a chip carries in a read-only editor named after it', async () => {
    open({ uri: 'switchboard://terminal/bash', kind: 'terminal', text: '$ npm test\n✓ passes', mimeType: 'text/markdown' });
    const editor = await waitFor(() => (active()?.document.uri.scheme === 'switchboard-mention' ? active() : undefined), 'the text in an editor');
    assert.strictEqual(editor.document.getText(), '$ npm test\n✓ passes');
    assert.ok(editor.document.uri.path.endsWith('/bash.md'), editor.document.uri.toString());
    assert.strictEqual(editor.document.isUntitled, false, 'no untitled document that asks to be saved');
    // A virtual document of our provider: an edit the API attempts leaves it as it was, never dirty.
    await Promise.resolve(editor.edit((b) => b.insert(new vscode.Position(0, 0), 'x'))).catch(() => false);
    assert.strictEqual(editor.document.getText(), '$ npm test\n✓ passes', 'read-only');
    assert.strictEqual(editor.document.isDirty, false);
  });

  it('opens a bare file chip (no lines, kind or text) in the editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    open({ uri: vscode.Uri.file(file).toString() });
    const editor = await waitFor(() => (active()?.document.uri.fsPath === file ? active() : undefined), 'rows.txt open');
    assert.strictEqual(editor.selection.start.line, 0);
  });

  it('bad requests open nothing and never throw: malformed, a file that is gone, a URI that does not parse', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const bad of [{}, { uri: 7 }, { uri: 'file:///x', text: 5 }, { uri: 'file:///x', kind: 'script' }]) open(bad);
    open({ uri: vscode.Uri.file(path.join(dir, 'gone.txt')).toString(), kind: 'file' });
    // A URI that does not parse, with text: the text still opens.
    open({ uri: '::not a uri', text: 'kept text' });
    const editor = await waitFor(() => (active()?.document.uri.scheme === 'switchboard-mention' ? active() : undefined), 'the text in an editor');
    assert.strictEqual(editor.document.getText(), 'kept text');
    assert.deepStrictEqual(tabLabels(), [editor.document.uri.path.split('/').pop()], 'nothing else opened');
  });
});
