// The e2e diff-review sequence replayed in the extension host, through the real extension: the demo agent
// edits src/greet.js over several turns (accepted, rejected, accepted on top, written over unsaved user
// text and undone), the pending changes are kept, then its two-hunk `edit2` is reviewed per hunk with the
// CodeLens commands. Every write goes through the fs bridge, the turn watcher and tool-call locations, as
// it does for a user.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { repoRoot, setSettings, waitFor, workspaceRoot } from '../index';
import { api, prompt, stopAgent } from '../integration/helpers';
import { closeAllEditors } from './helpers';

const DEMO = 'Demo Agent (host test)';
const EDIT_MARK = '// Edited by the Switchboard demo agent.';
const CHECK_MARK = ' // Checked by the demo agent.';
const agentEdit = (text: string): string => `${text.replace(/\s*$/, '')}\n${EDIT_MARK}\n`;

describe('diff review: demo agent turns on one file, then per-hunk Undo', function () {
  this.timeout(90_000);
  let sb: SwitchboardApi;
  let restoreSettings: () => Promise<void>;
  let greet: vscode.Uri;
  let original: string;

  before(async () => {
    sb = await api();
    restoreSettings = await setSettings({
      'switchboard.agents': {
        [DEMO]: { command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'agents', 'demo-agent.mjs')], env: { DEMO_AGENT_PACE_MS: '0' } },
      },
    });
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === DEMO), 'the demo agent in the picker');
    original = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'workspace', 'src', 'greet.js'), 'utf8');
    greet = vscode.Uri.file(path.join(workspaceRoot(), 'src', 'greet.js'));
    await closeAllEditors();
    fs.writeFileSync(greet.fsPath, original);
  });

  after(async () => {
    while (sb.diffReview.pendingTurns().length > 0) sb.diffReview.keepAll();
    for (const s of sb.backend.sessions.snapshots()) if (s.view.agentId === DEMO) await sb.backend.lifecycle.close(s.view.sessionId);
    await stopAgent(sb, DEMO);
    await restoreSettings();
    await closeAllEditors();
    fs.writeFileSync(greet.fsPath, original);
  });

  const disk = () => fs.readFileSync(greet.fsPath, 'utf8');
  const greetFiles = () => sb.diffReview.changedFiles().filter((s) => s.uri === greet.toString());

  /** One demo-agent turn in a new session; its permission request is answered with `optionId`. */
  async function turn(text: string, optionId: 'allow' | 'reject'): Promise<void> {
    const id = await sb.backend.lifecycle.open(DEMO);
    const running = sb.backend.sessions.require(id).prompt(prompt(text));
    const card = await waitFor(() => sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.permissions[0], `the permission request of "${text}"`, 30_000);
    sb.backend.requests.answerPermission(card.requestId, { optionId });
    await running;
  }

  /** The open document once VS Code shows `text` (it reloads a clean buffer after an outside write). */
  async function documentShowing(text: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(greet);
    await waitFor(() => doc.getText() === text, 'the buffer to show the file on disk');
    return doc;
  }

  it('earlier turns (accepted, rejected, on top, over unsaved text and undone) leave edit2 with two clean hunks', async () => {
    // Accept, then Reject, then Accept on top of the pending first edit.
    await turn('edit', 'allow');
    assert.strictEqual(disk(), agentEdit(original));
    await turn('edit', 'reject');
    assert.strictEqual(disk(), agentEdit(original));
    await turn('edit', 'allow');
    assert.strictEqual(disk(), agentEdit(agentEdit(original)));

    // The file is restored outside VS Code; the user types a line without saving; the agent writes over
    // the live buffer; Undo All brings the user's text back, which the user saves.
    fs.writeFileSync(greet.fsPath, original);
    const doc = await documentShowing(original);
    await vscode.window.showTextDocument(doc);
    const typed = new vscode.WorkspaceEdit();
    typed.insert(greet, new vscode.Position(0, 0), 'const userNote = 1;\n');
    assert.ok(await vscode.workspace.applyEdit(typed));
    const userText = `const userNote = 1;\n${original}`;
    await turn('edit', 'allow');
    assert.strictEqual(disk(), agentEdit(userText));
    assert.ok(await vscode.commands.executeCommand('switchboard.rejectAllChanges'));
    assert.strictEqual(doc.getText(), userText);
    await doc.save();
    assert.strictEqual(disk(), userText);

    // Keep whatever earlier turns left pending (as the e2e does), then the two-hunk edit.
    for (let i = 0; i < 4; i++) await vscode.commands.executeCommand('switchboard.acceptAllChanges');
    assert.deepStrictEqual(greetFiles(), [], 'nothing pending before edit2');
    await closeAllEditors();
    await turn('edit2', 'allow');
    const twoHunks = agentEdit(userText.replace(/^([^\n]*)/, `$1${CHECK_MARK}`));
    assert.strictEqual(disk(), twoHunks);

    await waitFor(() => greetFiles()[0]?.countsKnown, 'the counts of greet.js');
    const [entry] = greetFiles();
    assert.strictEqual(greetFiles().length, 1, JSON.stringify(greetFiles()));
    assert.deepStrictEqual([entry.added, entry.removed, entry.conflict, entry.undoable], [2, 1, false, true], JSON.stringify(entry));

    // The Undo CodeLens on line 1 reverts line 1 only.
    const live = await documentShowing(twoHunks);
    await vscode.window.showTextDocument(live);
    const lenses = sb.diffReview.codeLens.provideCodeLenses(live);
    assert.deepStrictEqual(
      lenses.map((l) => [l.range.start.line, l.command?.command]),
      [
        [0, 'switchboard.changes.keepHunk'],
        [0, 'switchboard.changes.undoHunk'],
        [14, 'switchboard.changes.keepHunk'],
        [14, 'switchboard.changes.undoHunk'],
      ],
    );
    const undoLine1 = lenses[1].command!;
    assert.ok(await vscode.commands.executeCommand(undoLine1.command, ...(undoLine1.arguments ?? [])));
    assert.strictEqual(disk(), agentEdit(userText), 'line 1 is back, the appended line is kept');

    // Reverting one of the agent's hunks is not an edit of the user's: no "edited since".
    await waitFor(() => greetFiles()[0]?.added === 1, 'the counts after the hunk Undo');
    const [rest] = greetFiles();
    assert.deepStrictEqual([rest.added, rest.removed, rest.conflict], [1, 0, false], JSON.stringify(rest));
    const remaining = sb.diffReview.codeLens.provideCodeLenses(live);
    assert.deepStrictEqual(remaining.map((l) => l.range.start.line), [14, 14]);
  });
});
