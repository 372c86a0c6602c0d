// An agent that writes files itself at once, naming none of them in any tool call (Cline's apply_patch,
// pi's instant writes, agents in auto mode), through the real extension: every file it created, edited,
// deleted or renamed is in the session's changed files and Undo All restores the folder byte for byte,
// with and without a permission request first; a file the user saves mid-turn is not the agent's; text
// equal to an earlier save of the user's still counts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChangedFileView } from '../../../src/shared/chatState';
import { waitFor, workspaceRoot } from '../index';
import { prompt, withFakeAgents } from '../integration/helpers';
import { closeAllEditors, fullRange } from './helpers';

const AGENT = 'Self-writing agent (host test)';

/** The folder before the turn; the agent's `self-write` scenario changes every file but user.txt. */
const BEFORE: Record<string, Buffer> = {
  'edit.txt': Buffer.from('line 1\r\nline 2 ü\r\n'),
  'gone.txt': Buffer.from('deleted by the agent\n'),
  'old-name.txt': Buffer.from('renamed by the agent\n'),
  'echo.txt': Buffer.from('echo before the turn\n'),
  'echo.next.txt': Buffer.from('the text the user once saved\n'),
  'user.txt': Buffer.from('the user works here too\n'),
};
const CHANGED = ['created.txt', 'echo.txt', 'edit.txt', 'gone.txt', 'new-name.txt', 'old-name.txt'];

describe('changed files: an agent that writes files itself without naming them', function () {
  this.timeout(120_000);
  const ctx = withFakeAgents({ [AGENT]: [] });
  let dir: string;
  let rel: string;
  let n = 0;

  beforeEach(async () => {
    await closeAllEditors();
    rel = path.join('self-writes', `${process.pid}-${Date.now()}-${++n}`);
    dir = path.join(workspaceRoot(), rel);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(BEFORE)) fs.writeFileSync(path.join(dir, name), bytes);
  });

  afterEach(async () => {
    await closeAllEditors();
    while (ctx.sb.diffReview.pendingTurns().length > 0) ctx.sb.diffReview.keepAll();
  });

  const changedFiles = (id: string): ChangedFileView[] =>
    (ctx.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.changedFiles ?? []).filter((f) => f.path.startsWith(dir + path.sep));
  const listed = (id: string) =>
    changedFiles(id)
      .map((f) => `${path.basename(f.path)} ${f.status}${f.undoable ? '' : ' (keep only)'}`)
      .sort();

  /** The user saves `text` into a file through VS Code, as typing and Ctrl+S does. */
  async function userSave(file: string, text: string): Promise<void> {
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, fullRange(doc), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
  }

  async function undoAllAndCheck(id: string): Promise<void> {
    await ctx.sb.backend.files.allFiles(id, 'undo');
    assert.deepStrictEqual(changedFiles(id), [], 'nothing pending after Undo All');
    for (const [name, bytes] of Object.entries(BEFORE)) {
      if (name === 'user.txt') continue;
      assert.deepStrictEqual(fs.readFileSync(path.join(dir, name)), bytes, `${name} byte for byte`);
    }
    assert.strictEqual(fs.existsSync(path.join(dir, 'created.txt')), false, 'the new file is deleted');
    assert.strictEqual(fs.existsSync(path.join(dir, 'new-name.txt')), false, 'the renamed file is back under its old name only');
  }

  it('permissions off: every file is listed and undone, also text equal to an earlier save of the user', async () => {
    // The user once saved the agent's future text in echo.txt; the file was then put back outside VS Code.
    await userSave(path.join(dir, 'echo.txt'), BEFORE['echo.next.txt'].toString('utf8'));
    await closeAllEditors();
    fs.writeFileSync(path.join(dir, 'echo.txt'), BEFORE['echo.txt']);

    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    assert.strictEqual(fs.readFileSync(path.join(dir, 'echo.txt'), 'utf8'), BEFORE['echo.next.txt'].toString('utf8'), 'the agent wrote');
    assert.deepStrictEqual(listed(id), [
      'created.txt created',
      'echo.txt modified',
      'edit.txt modified',
      'gone.txt deleted',
      'new-name.txt created',
      'old-name.txt deleted',
    ]);
    await undoAllAndCheck(id);
  });

  it('permissions on: the same, and a file the user saves while the agent waits is not the agent’s', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    const running = ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel} ask`));
    const card = await waitFor(() => ctx.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.permissions[0], 'the permission request', 30_000);
    await userSave(path.join(dir, 'user.txt'), 'the user saved this mid-turn\n');
    ctx.sb.backend.requests.answerPermission(card.requestId, { optionId: 'allow' });
    await running;
    assert.deepStrictEqual(listed(id).map((l) => l.split(' ')[0]), CHANGED, 'user.txt is not listed');
    assert.ok(changedFiles(id).every((f) => f.undoable));
    await undoAllAndCheck(id);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'user.txt'), 'utf8'), 'the user saved this mid-turn\n', 'the user’s save is left alone');
  });

  it('a second turn writing the same text again after Undo All is listed again', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    assert.deepStrictEqual(listed(id).map((l) => l.split(' ')[0]), CHANGED);
    await undoAllAndCheck(id);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    assert.deepStrictEqual(listed(id).map((l) => l.split(' ')[0]), CHANGED);
    await undoAllAndCheck(id);
  });
});
