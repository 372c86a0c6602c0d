// Deciding after the write: changed files per turn, Keep/Undo per file, turn and hunk, byte for byte,
// user edits never overwritten silently, decisions undoable, pending changes surviving a reload.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { BUTTON_SHOW_CONFLICTS, BUTTON_UNDO_AGENT_ONLY, hunkRef } from '../../../src/host/diff/changeDecisions';
import { DIFF_SCHEME } from '../../../src/host/diff/review/diffUri';
import { DiffReview } from '../../../src/host/diff/index';
import { FakeUi, activeDiffTab, agentWrite, closeAllEditors, diskText, logLines, reviewPerTest, silentLog, userEdit, waitUntil, writeFile } from './helpers';

const TURN = { sessionId: 'sess', turnId: 't1' };
const pick = (s: { added: number; removed: number; conflict: boolean } | undefined) => s && [s.added, s.removed, s.conflict];

describe('diff review: changed files after the write', () => {
  const ctx = reviewPerTest();

  /** Agent write through the fs-bridge path, recorded like the bridge's onDidWrite would. */
  async function write(uri: vscode.Uri, content: string, turn = TURN): Promise<string> {
    const before = await agentWrite(uri, content);
    ctx.review.recordWrite({ ...turn, uri: uri.toString(), before, after: content });
    await ctx.review.tracker.refreshUri(uri.toString());
    return before;
  }

  it('lists changed files with added/removed counts', async () => {
    const a = writeFile(path.join(ctx.dir, 'a.txt'), 'one\ntwo\nthree\n');
    await write(a, 'one\nTWO\nthree\nfour\n');
    const [s] = ctx.review.changedFiles(TURN);
    assert.ok(s);
    assert.strictEqual(s.status, 'modified');
    assert.deepStrictEqual([s.added, s.removed, s.countsKnown, s.undoable, s.conflict], [2, 1, true, true, false]);
    assert.deepStrictEqual(ctx.review.pendingTurns(), [TURN]);
  });

  it('Undo All restores every file byte for byte, unsaved user edits and CRLF included, and deletes new files', async () => {
    const a = writeFile(path.join(ctx.dir, 'crlf.txt'), 'l1\r\nl2\r\nl3');
    const b = writeFile(path.join(ctx.dir, 'dirty.ts'), 'saved on disk\n');
    await userEdit(b, 'saved on disk\nunsaved user line\n');
    const c = vscode.Uri.file(path.join(ctx.dir, 'created.md'));
    fs.writeFileSync(c.fsPath, '');
    fs.unlinkSync(c.fsPath);

    await write(a, 'l1\r\nL2\r\nl3\r\nl4\r\n');
    const bBefore = await write(b, 'agent rewrote it\n');
    assert.strictEqual(bBefore, 'saved on disk\nunsaved user line\n');
    // The fs bridge creates files with a WorkspaceEdit too.
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(c, { contents: new TextEncoder().encode('# new\n') });
    assert.ok(await vscode.workspace.applyEdit(edit));
    ctx.review.recordWrite({ ...TURN, uri: c.fsPath, before: null, after: '# new\n' });
    await ctx.review.tracker.refreshAll();
    assert.strictEqual(ctx.review.changedFiles(TURN).length, 3);

    assert.ok(await ctx.review.undoAll(TURN, 'cancel'));
    assert.deepStrictEqual(fs.readFileSync(a.fsPath), Buffer.from('l1\r\nl2\r\nl3'));
    assert.strictEqual(diskText(b), 'saved on disk\nunsaved user line\n');
    assert.strictEqual((await vscode.workspace.openTextDocument(b)).getText(), 'saved on disk\nunsaved user line\n');
    assert.strictEqual(fs.existsSync(c.fsPath), false);
    assert.strictEqual(ctx.review.changedFiles().length, 0);
  });

  it('Undo lands on the undo stack: Ctrl+Z brings the agent text and its review entry back', async () => {
    const a = writeFile(path.join(ctx.dir, 'z.txt'), 'before\n');
    await write(a, 'after\n');
    const editor = await vscode.window.showTextDocument(a);
    const [s] = ctx.review.changedFiles();
    assert.ok(await ctx.review.undoFile(s.key));
    assert.strictEqual(editor.document.getText(), 'before\n');
    await vscode.commands.executeCommand('undo');
    await waitUntil(() => editor.document.getText() === 'after\n', 'Ctrl+Z to restore the agent text');
    await waitUntil(() => ctx.review.changedFiles().length === 1, 'the entry to come back');
  });

  it('Keep All drops the turn and leaves the files; Undo Last Review Decision brings it back', async () => {
    const a = writeFile(path.join(ctx.dir, 'k.txt'), 'k0\n');
    await write(a, 'k1\n');
    assert.strictEqual(ctx.review.keepAll(TURN), 1);
    assert.strictEqual(ctx.review.changedFiles().length, 0);
    assert.strictEqual(diskText(a), 'k1\n');
    assert.ok(await ctx.review.decisions.undoLastDecision());
    assert.strictEqual(ctx.review.changedFiles().length, 1);
    assert.ok(await ctx.review.undoAll(undefined, 'cancel'));
    assert.strictEqual(diskText(a), 'k0\n');
  });

  it('undoing one hunk keeps the others; keeping one hunk survives Undo All', async () => {
    const a = writeFile(path.join(ctx.dir, 'h.txt'), 'a\nb\nc\nd\ne\nf\ng\n');
    await write(a, 'a\nB\nc\nd\nE\nf\nG\n');
    const key = ctx.review.changedFiles()[0].key;
    const hunks = ctx.review.tracker.hunks(key);
    assert.ok(hunks && hunks.length === 3);
    assert.ok(await ctx.review.decisions.undoHunk(hunkRef(key, hunks[1])));
    assert.strictEqual(diskText(a), 'a\nB\nc\nd\ne\nf\nG\n');
    const [after] = ctx.review.changedFiles();
    // Reverting one of the agent's hunks is not an edit of the user's.
    assert.deepStrictEqual([after.added, after.removed, after.conflict], [2, 2, false]);
    const remaining = ctx.review.tracker.hunks(key);
    assert.ok(remaining && remaining.length === 2);
    assert.ok(await ctx.review.decisions.keepHunk(hunkRef(key, remaining[0])));
    await ctx.review.tracker.refreshUri(a.toString());
    assert.deepStrictEqual([ctx.review.changedFiles()[0].added, ctx.review.changedFiles()[0].removed], [1, 1]);
    assert.ok(await ctx.review.undoAll(TURN, 'cancel'));
    assert.strictEqual(diskText(a), 'a\nB\nc\nd\ne\nf\ng\n');
  });

  it('CodeLenses offer Keep/Undo on each hunk of the live document', async () => {
    const a = writeFile(path.join(ctx.dir, 'lens.txt'), 'x\ny\nz\n');
    await write(a, 'x\nY\nz\nw\n');
    const doc = await vscode.workspace.openTextDocument(a);
    const lenses = ctx.review.codeLens.provideCodeLenses(doc);
    assert.strictEqual(lenses.length, 4);
    assert.deepStrictEqual(lenses.map((l) => l.range.start.line), [1, 1, 3, 3]);
    assert.deepStrictEqual(lenses.map((l) => l.command?.command), ['switchboard.changes.keepHunk', 'switchboard.changes.undoHunk', 'switchboard.changes.keepHunk', 'switchboard.changes.undoHunk']);
  });

  it('the diff editor shows the virtual baseline against the real file, so its revert arrows edit the file', async () => {
    const a = writeFile(path.join(ctx.dir, 'arrows.txt'), 'p\nq\nr\n');
    await write(a, 'p\nQ\nr\n');
    const key = ctx.review.changedFiles()[0].key;
    assert.ok(await ctx.review.opener.openEntryDiff(key));
    const tab = activeDiffTab();
    assert.ok(tab);
    assert.strictEqual(tab.original.scheme, DIFF_SCHEME);
    assert.strictEqual(tab.modified.toString(), a.toString());
    assert.strictEqual((await vscode.workspace.openTextDocument(tab.original)).getText(), 'p\nq\nr\n');
    // What a revert arrow does: edit the right side back to the left for that hunk.
    const doc = await vscode.workspace.openTextDocument(a);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(a, new vscode.Range(1, 0, 1, 1), 'q');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.strictEqual(doc.getText(), 'p\nq\nr\n');
    await waitUntil(() => ctx.review.changedFiles().length === 0, 'the fully reverted file to leave the list');
  });

  it('a hunk reverted by hand (the diff editor arrow) is not "edited since"; an edit of the user\'s is', async () => {
    const a = writeFile(path.join(ctx.dir, 'by-hand.txt'), 'a\nb\nc\nd\ne\n');
    await write(a, 'a\nB\nc\nd\nE\n');
    const doc = await vscode.workspace.openTextDocument(a);
    const revert = new vscode.WorkspaceEdit();
    revert.replace(a, new vscode.Range(1, 0, 1, 1), 'b');
    assert.ok(await vscode.workspace.applyEdit(revert));
    assert.ok(await doc.save());
    await ctx.review.tracker.refreshUri(a.toString());
    assert.deepStrictEqual(pick(ctx.review.changedFiles()[0]), [1, 1, false]);
    const mine = new vscode.WorkspaceEdit();
    mine.insert(a, new vscode.Position(2, 0), 'mine\n');
    assert.ok(await vscode.workspace.applyEdit(mine));
    await ctx.review.tracker.refreshUri(a.toString());
    assert.deepStrictEqual(pick(ctx.review.changedFiles()[0]), [2, 1, true]);
    // Undo All then keeps the user's line and asks first.
    ctx.ui.answer = (_m, buttons) => (buttons.includes(BUTTON_UNDO_AGENT_ONLY) ? BUTTON_UNDO_AGENT_ONLY : undefined);
    assert.ok(await ctx.review.undoAll(TURN));
    assert.match(ctx.ui.last('ask') ?? '', /edited after the agent changed it/);
    assert.strictEqual(doc.getText(), 'a\nb\nmine\nc\nd\ne\n');
  });

  it('a file the user edited after the agent: Undo asks, can show the conflict, and keeps the user edits', async () => {
    const a = writeFile(path.join(ctx.dir, 'conflict.txt'), 'a\nb\nc\nd\ne\nf\ng\n');
    await write(a, 'a\nB\nc\nd\ne\nf\nG\n');
    await userEdit(a, 'a\nB\nc\nd\nmine\nf\nG\n');
    await ctx.review.tracker.refreshUri(a.toString());
    assert.strictEqual(ctx.review.changedFiles()[0].conflict, true);

    ctx.ui.answer = () => undefined;
    assert.strictEqual(await ctx.review.undoAll(TURN), false);
    assert.strictEqual((await vscode.workspace.openTextDocument(a)).getText(), 'a\nB\nc\nd\nmine\nf\nG\n');
    assert.match(ctx.ui.last('ask') ?? '', /edited after the agent changed it/);

    ctx.ui.answer = () => BUTTON_SHOW_CONFLICTS;
    assert.strictEqual(await ctx.review.undoAll(TURN), false);
    const tab = activeDiffTab();
    assert.ok(tab, 'the conflict diff is open');
    assert.strictEqual(tab.modified.toString(), a.toString());

    ctx.ui.answer = (_m, buttons) => (buttons.includes(BUTTON_UNDO_AGENT_ONLY) ? BUTTON_UNDO_AGENT_ONLY : undefined);
    assert.ok(await ctx.review.undoAll(TURN));
    assert.strictEqual((await vscode.workspace.openTextDocument(a)).getText(), 'a\nb\nc\nd\nmine\nf\ng\n');
  });

  it('a file deleted after the agent wrote it can be restored from before the turn', async () => {
    const a = writeFile(path.join(ctx.dir, 'del.txt'), 'keep me\n');
    await write(a, 'agent\n');
    await closeAllEditors();
    fs.unlinkSync(a.fsPath);
    await ctx.review.tracker.refreshUri(a.toString());
    const [s] = ctx.review.changedFiles();
    assert.strictEqual(s.status, 'deleted');
    assert.ok(await ctx.review.undoFile(s.key, 'agentOnly'));
    assert.strictEqual(diskText(a), 'keep me\n');
  });

  it('a file the agent created and removed again (an atomic write\'s temp file): Undo asks nothing and leaves it gone', async () => {
    const tmp = vscode.Uri.file(path.join(ctx.dir, 'out.js.tmp.1234'));
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(tmp, { contents: new TextEncoder().encode('agent\n') });
    assert.ok(await vscode.workspace.applyEdit(edit));
    ctx.review.recordWrite({ ...TURN, uri: tmp.toString(), before: null, after: 'agent\n' });
    await closeAllEditors();
    // Renamed away before the tracker saw it go: the entry is still there when the user rejects the turn.
    fs.unlinkSync(tmp.fsPath);
    assert.strictEqual(ctx.review.changedFiles().length, 1);
    assert.ok(await ctx.review.undoAll(TURN));
    assert.strictEqual(ctx.ui.last('ask'), undefined);
    assert.ok(!fs.existsSync(tmp.fsPath));
    assert.deepStrictEqual(ctx.review.changedFiles(), []);
  });

  it('a 5 MB file: no line counts or diff (clear message), but Keep/Undo still work byte for byte', async () => {
    const big = 'a line of a large generated file\n'.repeat(Math.ceil((5 * 1024 * 1024) / 33));
    const a = writeFile(path.join(ctx.dir, 'huge.txt'), big);
    // Written to disk directly (an agent's own tool): the review must not depend on the buffer path.
    fs.writeFileSync(a.fsPath, big + 'one more\n');
    ctx.review.recordWrite({ ...TURN, uri: a.fsPath, before: big, after: big + 'one more\n' });
    await ctx.review.tracker.refreshUri(a.toString());
    const [s] = ctx.review.changedFiles();
    assert.strictEqual(s.countsKnown, false);
    assert.match(s.note ?? '', /too large/);
    assert.strictEqual(await ctx.review.opener.openEntryDiff(s.key), false);
    assert.match(ctx.ui.last('warn') ?? '', /5\.0 MB, over the 2\.0 MB limit/);
    assert.ok(await ctx.review.undoFile(s.key, 'cancel'));
    assert.ok(fs.readFileSync(a.fsPath).equals(Buffer.from(big)));
  });

  it('pending changes survive a reload (a new instance on the same Memento) until kept', async () => {
    const a = writeFile(path.join(ctx.dir, 'persist.txt'), 'v0\n');
    await write(a, 'v1\n');
    const memento = ctx.memento;
    const second = new DiffReview({ memento, log: silentLog, ui: new FakeUi() });
    try {
      await second.tracker.refreshAll();
      const [s] = second.changedFiles(TURN);
      assert.ok(s, 'restored entry');
      assert.deepStrictEqual([s.added, s.removed, s.undoable], [1, 1, true]);
      assert.ok(await second.undoAll(TURN, 'cancel'));
      assert.strictEqual(diskText(a), 'v0\n');
      const third = new DiffReview({ memento, log: silentLog, ui: new FakeUi() });
      assert.strictEqual(third.changedFiles().length, 0);
      third.dispose();
    } finally {
      second.dispose();
    }
  });

  it('a change the agent made by itself is picked up from file events, with the open buffer as baseline', async () => {
    const a = writeFile(path.join(ctx.dir, 'tool.txt'), 'disk\n');
    await userEdit(a, 'disk\nbuffer only\n');
    await (await vscode.workspace.openTextDocument(a)).save();
    const unseen = writeFile(path.join(ctx.dir, 'unseen.txt'), 'existed before\n');
    // A file born within the watcher's allowance for the kernel's coarse file clock (250 ms) of the turn's start
    // passes for one the agent created; unseen.txt must be older than that when the turn starts. (The setup's
    // own file events may still arrive during the turn: they record what the files held, which is harmless.)
    const born = fs.statSync(unseen.fsPath).birthtimeMs;
    await waitUntil(() => Date.now() > born + 400, 'unseen.txt to be older than the turn', 5000);
    const turn = { sessionId: 'sess', turnId: 't2' };
    await ctx.review.beginTurn(turn.sessionId, turn.turnId, [ctx.dir], 'a turn');
    fs.writeFileSync(a.fsPath, 'disk\nbuffer only\nagent tool\n');
    const b = path.join(ctx.dir, 'made-by-tool.txt');
    fs.writeFileSync(b, 'new\n');
    fs.writeFileSync(unseen.fsPath, 'existed before\nchanged by a shell command\n');
    const names = () => ctx.review.changedFiles(turn).map((s) => path.basename(s.path)).sort();
    await waitUntil(() => names().length >= 3, 'file events to be recorded', 10000);
    await ctx.review.endTurn('sess');
    assert.deepStrictEqual(names(), ['made-by-tool.txt', 'tool.txt', 'unseen.txt'], 'the files, not their folder');
    const byName = new Map(ctx.review.changedFiles(turn).map((s) => [path.basename(s.path), s]));
    assert.strictEqual(byName.get('tool.txt')?.undoable, true);
    assert.strictEqual(byName.get('made-by-tool.txt')?.status, 'created', logLines.join('\n'));
    assert.strictEqual(byName.get('unseen.txt')?.undoable, false, 'never seen before: keep only');

    assert.ok(await ctx.review.undoFile(byName.get('tool.txt')?.key ?? '', 'cancel'));
    assert.strictEqual(diskText(a), 'disk\nbuffer only\n');
    assert.ok(await ctx.review.undoFile(byName.get('made-by-tool.txt')?.key ?? '', 'cancel'));
    assert.strictEqual(fs.existsSync(b), false);
    assert.strictEqual(await ctx.review.undoFile(byName.get('unseen.txt')?.key ?? '', 'cancel'), false);
    assert.match(ctx.ui.last('warn') ?? '', /did not see it before the agent changed it/);
    assert.strictEqual(diskText(unseen), 'existed before\nchanged by a shell command\n', 'left alone');
  });

  it('files the agent writes into folders it just made are listed, though the watcher reports only the folder', async () => {
    const turn = { sessionId: 'sess', turnId: 't-new-folders' };
    await ctx.review.beginTurn(turn.sessionId, turn.turnId, [ctx.dir], 'a turn');
    // As a shell's `mkdir -p made/deeper && echo ... > made/deeper/inner.txt`.
    fs.mkdirSync(path.join(ctx.dir, 'made', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(ctx.dir, 'made', 'top.txt'), 'top\n');
    fs.writeFileSync(path.join(ctx.dir, 'made', 'deeper', 'inner.txt'), 'inner\n');
    const names = () => ctx.review.changedFiles(turn).map((s) => path.relative(ctx.dir, s.path)).sort();
    await waitUntil(() => names().length >= 2, 'the new folders\' files to be recorded', 10000);
    await ctx.review.endTurn('sess');
    assert.deepStrictEqual(names(), [path.join('made', 'deeper', 'inner.txt'), path.join('made', 'top.txt')], 'the files, not their folders');
    assert.deepStrictEqual(ctx.review.changedFiles(turn).map((s) => s.status), ['created', 'created']);
    assert.ok(await ctx.review.undoAll(turn, 'cancel'));
    assert.ok(!fs.existsSync(path.join(ctx.dir, 'made', 'top.txt')) && !fs.existsSync(path.join(ctx.dir, 'made', 'deeper', 'inner.txt')));
  });

  it('tool-call locations: a first sighting is only a snapshot; a later change is recorded against it', async () => {
    const a = writeFile(path.join(ctx.dir, 'loc.txt'), 'read me\n');
    const turn = { sessionId: 'sess', turnId: 't3' };
    await ctx.review.recordAgentTouchedFile({ ...turn, uri: a.toString() });
    assert.strictEqual(ctx.review.changedFiles(turn).length, 0, 'a read is not a change');
    fs.writeFileSync(a.fsPath, 'read me\nand edited\n');
    await ctx.review.recordAgentTouchedFile({ ...turn, uri: a.toString() });
    const [s] = ctx.review.changedFiles(turn);
    assert.ok(s);
    assert.deepStrictEqual([s.added, s.removed, s.undoable], [1, 0, true]);
    assert.ok(await ctx.review.undoAll(turn, 'cancel'));
    assert.strictEqual(diskText(a), 'read me\n');
  });

  it('follow along reveals a location without stealing focus, only when switchboard.followAgent is on', async () => {
    const a = writeFile(path.join(ctx.dir, 'follow.txt'), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'));
    const cfg = vscode.workspace.getConfiguration('switchboard');
    const old = cfg.inspect<boolean>('followAgent')?.globalValue;
    try {
      await cfg.update('followAgent', false, vscode.ConfigurationTarget.Global);
      assert.strictEqual(await ctx.review.followLocation(a.fsPath, 30), false);
      await cfg.update('followAgent', true, vscode.ConfigurationTarget.Global);
      assert.strictEqual(await ctx.review.followLocation(a.fsPath, 30), true);
      const editor = vscode.window.activeTextEditor;
      assert.strictEqual(editor?.document.uri.toString(), a.toString());
      assert.strictEqual(editor?.selection.active.line, 29);
      assert.strictEqual(await ctx.review.followLocation('/etc/passwd', 1), false);
    } finally {
      await cfg.update('followAgent', old, vscode.ConfigurationTarget.Global);
    }
  });
});
