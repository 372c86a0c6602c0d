// `@` Changes through the real backend and the built-in Git extension, in a Git repository the test makes:
// one file's diff and all of them, as a `resource` (text/x-diff) or as text; a folder outside any
// repository and Git turned off are refused with nothing sent.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { setSettings, waitFor, workspaceRoot } from '../index';
import { candidates, ref, resourceOf, sendAndReceive, sendRefused, withRecordingAgents } from './helpers';

// First in this file: the Git extension turns on when git.enabled does, but turns off only with a reload, and
// the test workbench starts with it off (scripts/lib/workspace.mjs), as a user who turned Git off has it.
describe('@ mentions: Changes with Git turned off', function () {
  this.timeout(120_000);
  const { context, record, agents } = withRecordingAgents('GitOff');

  it('the picker offers no changes and a Changes mention is refused, nothing sent', async function () {
    assert.strictEqual(vscode.workspace.getConfiguration('git').get('enabled'), false, 'the test workbench starts with git.enabled off');
    const api = (await vscode.extensions.getExtension('vscode.git')!.activate()) as { enabled: boolean };
    if (api.enabled) this.skip(); // turned on by a test before this one: only a reload turns it off again
    assert.ok(!(await candidates(context.sb, 'changes')).some((c) => c.kind === 'changes'), 'no Changes candidates');
    const session = await context.sb.backend.lifecycle.open(agents.embedder);
    const file = vscode.Uri.file(path.join(workspaceRoot(), 'src', 'app.js'));
    await sendRefused(context.sb, record.embedder, session, [{ kind: 'changes', uri: file.toString(), label: 'changes:app.js' }], /Git is turned off in VS Code \(git\.enabled\)/);
  });
});

describe('@ mentions: Changes', function () {
  this.timeout(120_000);
  const { context, record, agents } = withRecordingAgents('Changes');
  let repo: string;
  let restoreGit: (() => Promise<void>) | undefined;

  before(async () => {
    // The test workbench turns Git off; a user's VS Code has it on.
    restoreGit = await setSettings({ 'git.enabled': true });
    const api = (await vscode.extensions.getExtension('vscode.git')!.activate()) as { enabled: boolean };
    await waitFor(() => api.enabled, 'the Git extension to turn on', 30_000);
    repo = path.join(workspaceRoot(), `changes-repo-${process.pid}`);
    fs.mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], { cwd: repo });
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'app.js'), 'const a = 1;\nconst b = 2;\n');
    git('add', '.');
    git('commit', '-qm', 'first');
    fs.writeFileSync(path.join(repo, 'app.js'), 'const a = 1;\nconst b = 3;\n');
    fs.writeFileSync(path.join(repo, 'new.txt'), 'brand new\n');
  });

  after(async () => {
    fs.rmSync(repo, { recursive: true, force: true });
    await restoreGit?.();
  });

  async function changeCandidates(): Promise<{ all: vscode.Uri; file: vscode.Uri; list: Awaited<ReturnType<typeof candidates>> }> {
    const all = vscode.Uri.file(repo);
    const file = vscode.Uri.file(path.join(repo, 'app.js'));
    // Git finds the new repository on its own time; the picker lists what it has found.
    await (vscode.extensions.getExtension('vscode.git')!.exports as { getAPI(v: 1): { openRepository(u: vscode.Uri): Promise<unknown> } }).getAPI(1).openRepository(all);
    const list = await waitFor(async () => {
      const found = await candidates(context.sb, 'changes');
      return found.some((c) => c.kind === 'changes' && c.uri === file.toString()) ? found : undefined;
    }, 'the repository and its changed file in the @ list', 60_000);
    return { all, file, list };
  }

  it("offers the repository's changes and one file's; the agent gets the working tree's unified diff", async () => {
    const { all, file, list } = await changeCandidates();
    const allChanges = list.find((c) => c.kind === 'changes' && c.uri === all.toString());
    assert.ok(allChanges, `all changes are offered: ${JSON.stringify(list.filter((c) => c.kind === 'changes'))}`);
    const oneFile = list.find((c) => c.kind === 'changes' && c.uri === file.toString())!;

    const embedding = await context.sb.backend.lifecycle.open(agents.embedder);
    const one = resourceOf(await sendAndReceive(context.sb, record.embedder, embedding, 'review', [ref(oneFile)]));
    assert.strictEqual(one.mimeType, 'text/x-diff');
    assert.match(one.text ?? '', /-const b = 2;\n\+const b = 3;/);
    assert.doesNotMatch(one.text ?? '', /new\.txt/, "one file's diff only");

    const both = resourceOf(await sendAndReceive(context.sb, record.embedder, embedding, 'review all', [ref(allChanges)]));
    assert.match(both.text ?? '', /\+const b = 3;/);
    assert.match(both.text ?? '', /\+\+\+ b\/new\.txt\n@@ -0,0 \+1,1 @@\n\+brand new/, 'an untracked file as all new');

    const linking = await context.sb.backend.lifecycle.open(agents.linker);
    const blocks = await sendAndReceive(context.sb, record.linker, linking, 'review', [ref(oneFile)]);
    assert.ok(!blocks.some((b) => b.type === 'resource'));
    assert.match(blocks.map((b) => b.text ?? '').join('\n'), /\+const b = 3;/, 'as text without embedded context');
  });

  it('a folder that is in no Git repository is refused, nothing sent', async () => {
    const outside = path.join(workspaceRoot(), `no-repo-${process.pid}`);
    fs.mkdirSync(outside, { recursive: true });
    try {
      const session = await context.sb.backend.lifecycle.open(agents.embedder);
      await sendRefused(context.sb, record.embedder, session, [{ kind: 'changes', uri: vscode.Uri.file(outside).toString(), label: 'changes:no-repo' }], /is not in a Git repository/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

});
