// File plans (plan_update of type "file") from the fake agent, through the extension: one card per planId,
// updated in place and removed; the chat's "Open plan" action opens the file in an editor (a file outside the
// session's folders only as switchboard.fileAccess allows, and read-only); every bad URI is refused with a
// reason the card shows, and the session goes on.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { prompt, transcriptOf, withFakeAgents } from '../integration/helpers';

const AGENT = 'Fake Plans';

describe('plans: file plans and Open plan', function () {
  this.timeout(60_000);
  const ctx = withFakeAgents({ [AGENT]: [] });
  const dir = () => path.join(workspaceRoot(), 'plans-test');
  let outside: string | undefined;

  before(() => {
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'first plan.md'), '# First plan\n\n1. Do it\n');
    fs.writeFileSync(path.join(dir(), 'second.md'), '# Second plan\n');
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-plan-outside-'));
    fs.writeFileSync(path.join(outside, 'outside.md'), '# Outside plan\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir(), { recursive: true, force: true });
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
  });

  const plansOf = (sessionId: string) => transcriptOf(ctx.sb, sessionId).items.filter((i) => i.kind === 'plan');
  const fileUri = (p: string) => vscode.Uri.file(p).toString();

  /** The chat's message, as the webview posts it (parsed by the schema, routed by the handlers). */
  function clickOpenPlan(sessionId: string, planId: string, uri: string): void {
    ctx.sb.chat.controller.handleMessage({ type: 'openPlanFile', sessionId, planId, uri });
  }

  async function typeInActiveEditor(text: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('type', { text });
  }

  async function activeEditorOf(file: string): Promise<vscode.TextEditor> {
    return waitFor(() => {
      const editor = vscode.window.activeTextEditor;
      return editor && editor.document.uri.fsPath === file ? editor : undefined;
    }, `an editor on ${file}`);
  }

  it('shows a card per planId, updated in place and removed; Open plan opens the file from the transcript', async () => {
    const sessionId = await ctx.sb.backend.lifecycle.open(AGENT);
    const first = path.join(dir(), 'first plan.md');
    const second = path.join(dir(), 'second.md');
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt(`plan-file p1 ${fileUri(first)}`));
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt(`plan-file p2 ${fileUri(second)}`));
    assert.deepStrictEqual(plansOf(sessionId).map((p) => p.kind === 'plan' && [p.planId, p.fileUri]), [['p1', fileUri(first)], ['p2', fileUri(second)]]);
    const view = ctx.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId)?.view;
    assert.deepStrictEqual(view?.folders?.[0], workspaceRoot(), 'the card names files relative to the session folders');

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    clickOpenPlan(sessionId, 'p1', fileUri(first));
    const editor = await activeEditorOf(first);
    assert.match(editor.document.getText(), /# First plan/);

    // The same planId again: its card changes, no new card.
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt(`plan-file p1 ${fileUri(second)}`));
    assert.deepStrictEqual(plansOf(sessionId).map((p) => p.kind === 'plan' && [p.planId, p.fileUri]), [['p1', fileUri(second)], ['p2', fileUri(second)]]);
    // The host opens what the transcript says now, whatever URI the card sent.
    clickOpenPlan(sessionId, 'p1', fileUri(first));
    await activeEditorOf(second);

    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt('plan-remove p1'));
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt('plan-remove never-was'));
    assert.deepStrictEqual(plansOf(sessionId).map((p) => p.kind === 'plan' && p.planId), ['p2']);
    await assert.rejects(ctx.sb.backend.files.openPlanFile(sessionId, 'p1'), /no longer a file in the session/);
  });

  it('refuses a relative path, a non-file URI, a missing file and a folder with the reason; the session goes on', async () => {
    const sessionId = await ctx.sb.backend.lifecycle.open(AGENT);
    const cases: Array<[string, string, RegExp]> = [
      ['relative', 'plans-test/second.md', /"plans-test\/second\.md", a relative path: only an absolute file: URI can be opened/],
      ['web', 'https://example.com/plan.md', /"https:\/\/example\.com\/plan\.md", which is not a file: URI/],
      ['command', 'command:workbench.action.quit', /not a file: URI/],
      ['missing', fileUri(path.join(dir(), 'missing.md')), /The plan file .*missing\.md does not exist\./],
      ['folder', fileUri(dir()), /plans-test is a folder, not a plan file\./],
    ];
    for (const [planId, uri] of cases) await ctx.sb.backend.sessions.require(sessionId).prompt(prompt(`plan-file ${planId} ${uri}`));
    assert.strictEqual(plansOf(sessionId).length, cases.length, 'every plan has its card');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const [planId, , reason] of cases) {
      await assert.rejects(ctx.sb.backend.files.openPlanFile(sessionId, planId), reason, planId);
      // Through the chat it is answered on the card (the handler never throws, so no notification).
      clickOpenPlan(sessionId, planId, 'anything');
    }
    assert.strictEqual(vscode.window.activeTextEditor, undefined, 'nothing opened');
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt('still working'));
    const last = transcriptOf(ctx.sb, sessionId).items.filter((i) => i.kind === 'agent_message').pop();
    assert.ok(last?.kind === 'agent_message' && last.content.some((c) => c.type === 'text' && c.text.includes('still working')));
  });

  it('a file outside the session folders opens read-only when switchboard.fileAccess allows reading it, never when it denies', async () => {
    const sessionId = await ctx.sb.backend.lifecycle.open(AGENT);
    const file = path.join(outside!, 'outside.md');
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt(`plan-file out ${fileUri(file)}`));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    const deny = await setSettings({ 'switchboard.fileAccess': 'deny' });
    try {
      await assert.rejects(ctx.sb.backend.files.openPlanFile(sessionId, 'out'), /The plan file was not opened: Access outside the session's folders was denied by switchboard\.fileAccess/);
      assert.strictEqual(vscode.window.activeTextEditor, undefined);
    } finally {
      await deny();
    }

    const allow = await setSettings({ 'switchboard.fileAccess': 'allow' });
    try {
      await ctx.sb.backend.files.openPlanFile(sessionId, 'out');
      const outsideDoc = (await activeEditorOf(file)).document;
      // Typed as the user types: the read-only editor ignores it. Once it is made writable, what is typed next
      // lands (edits arrive in order, so the first text would be there by then had it been taken).
      await typeInActiveEditor('ignored ');
      await vscode.commands.executeCommand('workbench.action.files.setActiveEditorWriteableInSession');
      await typeInActiveEditor('taken ');
      await waitFor(() => outsideDoc.getText().includes('taken '), 'the text typed once the editor is writable');
      assert.strictEqual(outsideDoc.getText(), 'taken # Outside plan\n', 'the editor outside the session folders was read-only');
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      await allow();
    }

    // Inside the workspace the editor is an ordinary one: what is typed lands.
    const inside = path.join(dir(), 'second.md');
    await ctx.sb.backend.sessions.require(sessionId).prompt(prompt(`plan-file in ${fileUri(inside)}`));
    await ctx.sb.backend.files.openPlanFile(sessionId, 'in');
    const editor = await activeEditorOf(inside);
    await typeInActiveEditor('typed ');
    await waitFor(() => editor.document.getText().startsWith('typed '), 'the typed text in the editable plan');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
