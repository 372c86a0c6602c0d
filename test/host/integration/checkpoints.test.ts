// Checkpoints through the real extension with the fake agent: "Restore checkpoint" on a user message puts
// back every file the agent created, changed or deleted after it, across turns, written through
// fs/write_text_file or by the agent itself; the user's changes between turns are left alone; the restore
// can be undone; and the bad cases: read-only and renamed files, a turn running, a reload, a snapshot gone.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CheckpointAction, CheckpointView } from '../../../src/shared/checkpoints';
import { closeAllEditors } from '../diff/helpers';
import { waitFor, workspaceRoot } from '../index';
import { prompt, transcriptOf, withFakeAgents } from './helpers';

const AGENT = 'Checkpoint agent (host test)';

/** The folder before the first message; the fake agent's `self-write` changes all of it but user.txt. */
const BEFORE: Record<string, Buffer> = {
  'edit.txt': Buffer.from('line 1\r\nline 2 ü\r\n'),
  'gone.txt': Buffer.from('deleted by the agent\n'),
  'old-name.txt': Buffer.from('renamed by the agent\n'),
  'echo.txt': Buffer.from([0x00, 0xff, 0x10, 0x0d, 0x0a, 0x80]),
  'echo.next.txt': Buffer.from('the next text of echo.txt\n'),
  'user.txt': Buffer.from('the user works here too\n'),
};

/** Every file under `dir` (relative, '/'-separated) with its bytes. */
function tree(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  const walk = (sub: string) => {
    for (const e of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else out[rel] = fs.readFileSync(path.join(dir, rel));
    }
  };
  walk('');
  return out;
}

describe('checkpoints: restore the files to before a message', function () {
  this.timeout(180_000);
  const ctx = withFakeAgents({ [AGENT]: [] });
  let dir: string;
  let rel: string;
  let n = 0;

  beforeEach(() => {
    rel = path.join('checkpoints', `${process.pid}-${Date.now()}-${++n}`);
    dir = path.join(workspaceRoot(), rel);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of Object.entries(BEFORE)) fs.writeFileSync(path.join(dir, name), bytes);
  });

  /** Puts back a setting a test changed. */
  let restoreAutoSave: (() => Thenable<void>) | undefined;

  afterEach(async () => {
    await closeAllEditors();
    await restoreAutoSave?.();
    restoreAutoSave = undefined;
    for (const f of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, f), 0o644);
    while (ctx.sb.diffReview.pendingTurns().length > 0) ctx.sb.diffReview.keepAll();
    for (const s of ctx.sb.backend.sessions.snapshots()) await ctx.sb.backend.lifecycle.close(s.view.sessionId);
  });

  const userMessages = (id: string) => transcriptOf(ctx.sb, id).items.filter((i) => i.kind === 'user_message').map((i) => i.id);
  const act = (id: string, itemId: string, action: CheckpointAction) => ctx.sb.backend.checkpoints.act(id, itemId, action);
  /** The files of this test's folder in a preview, as "name action[ (yours)]". */
  function listed(view: CheckpointView): string[] {
    assert.strictEqual(view.phase, 'preview', JSON.stringify(view));
    if (view.phase !== 'preview') return [];
    return view.files
      .filter((f) => f.path.startsWith(dir + path.sep))
      .map((f) => `${path.relative(dir, f.path)} ${f.action}${f.userEdited ? ' (yours)' : ''}${f.blocked ? ` blocked: ${f.blocked}` : ''}`);
  }
  function restored(view: CheckpointView): Extract<CheckpointView, { phase: 'restored' }> {
    assert.strictEqual(view.phase, 'restored', JSON.stringify(view));
    return view as Extract<CheckpointView, { phase: 'restored' }>;
  }
  const mine = (paths: string[]) => paths.filter((p) => p.startsWith(dir + path.sep)).map((p) => path.relative(dir, p)).sort();

  it('two turns back: files the agent wrote through fs/write and by itself come back byte for byte, the user’s file stays, Undo restore puts it all back', async () => {
    const start = tree(dir);
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`write ${path.join(dir, 'fs-made.txt')} made through fs/write_text_file`));
    assert.ok(fs.existsSync(path.join(dir, 'fs-made.txt')), 'the agent wrote through the fs bridge');
    // Between the turns the user edits a file: theirs, not the agent's.
    fs.writeFileSync(path.join(dir, 'user.txt'), 'the user changed this between turns\n');
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    const [first, second] = userMessages(id);
    assert.ok(first && second, 'two user messages');

    assert.deepStrictEqual(listed(await act(id, first, { kind: 'preview' })), [
      'created.txt delete',
      'echo.txt revert',
      'edit.txt revert',
      'fs-made.txt delete',
      'gone.txt recreate',
      'new-name.txt delete',
      'old-name.txt recreate',
      'user.txt revert (yours)',
    ]);
    const beforeRestore = tree(dir);
    const done = restored(await act(id, first, { kind: 'restore', include: [] }));
    assert.deepStrictEqual(mine(done.skipped), ['user.txt']);
    assert.deepStrictEqual(done.failed, []);
    assert.deepStrictEqual(tree(dir), { ...start, 'user.txt': Buffer.from('the user changed this between turns\n') }, 'every agent file as before the first message');
    const notice = transcriptOf(ctx.sb, id).items.filter((i) => i.kind === 'notice').at(-1);
    assert.ok(notice?.kind === 'notice' && /not rewound/.test(notice.description ?? ''), 'the chat says the conversation is not rewound');

    const undone = await act(id, first, { kind: 'undo' });
    assert.strictEqual(undone.phase, 'undone', JSON.stringify(undone));
    assert.deepStrictEqual(tree(dir), beforeRestore, 'Undo restore puts back what the restore replaced');

    // One message back: only the second turn's files.
    assert.deepStrictEqual(listed(await act(id, second, { kind: 'preview' })), [
      'created.txt delete',
      'echo.txt revert',
      'edit.txt revert',
      'gone.txt recreate',
      'new-name.txt delete',
      'old-name.txt recreate',
    ]);
    restored(await act(id, second, { kind: 'restore', include: [] }));
    assert.deepStrictEqual(tree(dir), { ...start, 'user.txt': Buffer.from('the user changed this between turns\n'), 'fs-made.txt': Buffer.from('made through fs/write_text_file') });
  });

  it('the user’s file is restored too when the user includes it', async () => {
    const start = tree(dir);
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    fs.writeFileSync(path.join(dir, 'edit.txt'), 'the user rewrote the agent’s edit\n');
    const [first] = userMessages(id);
    assert.ok(listed(await act(id, first, { kind: 'preview' })).includes('edit.txt revert (yours)'));
    const left = restored(await act(id, first, { kind: 'restore', include: [] }));
    assert.deepStrictEqual(mine(left.skipped), ['edit.txt']);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'edit.txt'), 'utf8'), 'the user rewrote the agent’s edit\n', 'left alone');
    restored(await act(id, first, { kind: 'restore', include: [path.join(dir, 'edit.txt')] }));
    assert.deepStrictEqual(tree(dir), start);
  });

  it('a file made read-only, renamed or deleted meanwhile: says which could not be restored, restores the rest, loses nothing', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    const agentEdit = fs.readFileSync(path.join(dir, 'edit.txt'));
    fs.chmodSync(path.join(dir, 'edit.txt'), 0o444);
    fs.renameSync(path.join(dir, 'created.txt'), path.join(dir, 'mine.txt'));
    fs.rmSync(path.join(dir, 'new-name.txt'));
    const [first] = userMessages(id);
    assert.deepStrictEqual(listed(await act(id, first, { kind: 'preview' })), [
      'echo.txt revert',
      'edit.txt revert blocked: it is read-only',
      'gone.txt recreate',
      'mine.txt delete (yours)',
      'old-name.txt recreate',
    ]);
    const done = restored(await act(id, first, { kind: 'restore', include: [] }));
    assert.deepStrictEqual(done.failed.map((f) => `${path.relative(dir, f.path)}: ${f.reason}`), ['edit.txt: it is read-only']);
    assert.deepStrictEqual(mine(done.restored), ['echo.txt', 'gone.txt', 'old-name.txt']);
    assert.deepStrictEqual(fs.readFileSync(path.join(dir, 'edit.txt')), agentEdit, 'the read-only file is untouched');
    assert.strictEqual(fs.statSync(path.join(dir, 'edit.txt')).mode & 0o777, 0o444, 'and still read-only');
    assert.ok(fs.existsSync(path.join(dir, 'mine.txt')), 'the user’s renamed file is kept');
    for (const name of ['echo.txt', 'gone.txt', 'old-name.txt']) assert.deepStrictEqual(fs.readFileSync(path.join(dir, name)), BEFORE[name], name);
  });

  it('a file with unsaved changes in an editor is not restored and its buffer is kept', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    const uri = vscode.Uri.file(path.join(dir, 'created.txt'));
    const doc = await vscode.workspace.openTextDocument(uri);
    // The buffer shows what the agent wrote before the user types into it.
    await waitFor(() => doc.getText() === fs.readFileSync(uri.fsPath, 'utf8'), 'the buffer to show the disk');
    // Typed in an editor, as a user would. The web workbench (code-server) defaults files.autoSave to
    // "afterDelay" (desktop VS Code: "off"): VS Code itself would save the typing after a second, so unsaved
    // changes exist only with auto save off, as here.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    restoreAutoSave = () => files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await waitFor(() => vscode.workspace.getConfiguration('files').get('autoSave') === 'off', 'auto save off');
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'typed, not saved\n')));
    const typed = doc.getText();
    const [first] = userMessages(id);
    assert.ok(listed(await act(id, first, { kind: 'preview' })).some((l) => l.startsWith('created.txt delete blocked: it has unsaved changes')));
    assert.ok(doc.isDirty, 'dirty before the restore');
    const done = restored(await act(id, first, { kind: 'restore', include: [] }));
    assert.deepStrictEqual(done.failed.map((f) => path.relative(dir, f.path)), ['created.txt']);
    assert.strictEqual(doc.getText(), typed, 'the unsaved text is still there');
    assert.ok(doc.isDirty, `still unsaved (disk: ${JSON.stringify(fs.readFileSync(uri.fsPath, 'utf8'))})`);
  });

  it('is refused while a turn runs, with the reason', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    const [first] = userMessages(id);
    const running = ctx.sb.backend.sessions.require(id).prompt(prompt('wait-cancel'));
    await waitFor(() => ctx.sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.turn === 'running', 'the turn to run');
    const view = await act(id, first, { kind: 'restore', include: [] });
    assert.strictEqual(view.phase, 'error');
    assert.match(view.phase === 'error' ? view.message : '', /working/);
    assert.ok(fs.existsSync(path.join(dir, 'created.txt')), 'nothing restored');
    ctx.sb.backend.sessions.get(id)?.cancel();
    await running;
  });

  it('works after the session is closed and reopened from the store (as after a window reload)', async () => {
    const start = tree(dir);
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    const [first] = userMessages(id);
    await ctx.sb.backend.lifecycle.close(id);
    await ctx.sb.backend.lifecycle.openHistory(`local:${id}`, 'load');
    await waitFor(() => ctx.sb.backend.sessions.snapshots().some((s) => s.view.sessionId === id), 'the session back from the store');
    restored(await act(id, first, { kind: 'restore', include: [] }));
    assert.deepStrictEqual(tree(dir), start);
  });

  it('a checkpoint whose snapshot is gone says so and changes nothing', async () => {
    const id = await ctx.sb.backend.lifecycle.open(AGENT);
    await ctx.sb.backend.sessions.require(id).prompt(prompt(`self-write ${rel}`));
    const [first] = userMessages(id);
    // The first message's snapshot is the kept tree that still has gone.txt in this folder: remove it.
    const gitDir = shadowGitDir(workspaceRoot());
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' });
    const kept = git('for-each-ref', '--format=%(objectname)', 'refs/switchboard/checkpoints/').split('\n').filter(Boolean);
    const relPosix = rel.split(path.sep).join('/');
    const begin = kept.find((t) => git('ls-tree', '-r', '--name-only', t, '--', `${relPosix}/gone.txt`).trim() !== '');
    assert.ok(begin, 'the checkpoint tree is kept by a ref');
    fs.rmSync(path.join(gitDir, 'objects', begin.slice(0, 2), begin.slice(2)));
    const before = tree(dir);
    const view = await act(id, first, { kind: 'preview' });
    assert.strictEqual(view.phase, 'error', JSON.stringify(view));
    assert.match(view.phase === 'error' ? view.message : '', /can no longer be restored/);
    assert.deepStrictEqual(tree(dir), before);
  });
});

/** The shadow Git directory of a folder, in the test host's global storage. */
function shadowGitDir(folder: string): string {
  const results = process.env.SWITCHBOARD_TEST_RESULTS;
  assert.ok(results, 'SWITCHBOARD_TEST_RESULTS');
  const globalStorage = path.join(path.dirname(results), 'user-data', 'User', 'globalStorage');
  const hash = createHash('sha256').update(folder).digest('hex').slice(0, 24);
  for (const ext of fs.readdirSync(globalStorage)) {
    const dir = path.join(globalStorage, ext, 'baselines', hash);
    if (fs.existsSync(dir)) return dir;
  }
  throw new Error(`no shadow repository of ${folder} under ${globalStorage}`);
}
