// Diff review in a real VS Code: switchboard-diff virtual documents and opening ACP diffs.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { DIFF_SCHEME } from '../../../src/host/diff/review/diffUri';
import { activeDiffTab, reviewPerTest, waitUntil } from './helpers';

describe('diff review: virtual documents and ACP diffs', () => {
  const ctx = reviewPerTest();

  it('serves read-only content behind id-only URIs', async () => {
    const uri = ctx.review.provider.put('hello\nworld\n', '/secret/place/notes.md', true);
    assert.strictEqual(uri.scheme, DIFF_SCHEME);
    assert.strictEqual(uri.query, '');
    assert.ok(!uri.toString().includes('secret'), uri.toString());
    assert.match(uri.path, /^\/[A-Za-z0-9-]+\/notes\.md$/);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.strictEqual(doc.getText(), 'hello\nworld\n');
    assert.strictEqual(doc.languageId, 'markdown');
    // Content updates reach the open document.
    ctx.review.provider.update(uri, 'changed\n');
    await waitUntil(() => doc.getText() === 'changed\n', 'the open document to show the update');
  });

  it('opens an ACP diff in the native diff editor with both sides virtual', async () => {
    const file = path.join(ctx.dir, 'app.ts');
    assert.strictEqual(await ctx.review.openDiff({ path: file, oldText: 'const a = 1;\n', newText: 'const a = 2;\n' }), true);
    const tab = activeDiffTab();
    assert.ok(tab, 'a diff tab is active');
    assert.strictEqual(tab.original.scheme, DIFF_SCHEME);
    assert.strictEqual(tab.modified.scheme, DIFF_SCHEME);
    assert.strictEqual((await vscode.workspace.openTextDocument(tab.original)).getText(), 'const a = 1;\n');
    assert.strictEqual((await vscode.workspace.openTextDocument(tab.modified)).getText(), 'const a = 2;\n');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /app\.ts \(Proposed by Agent\)/);
  });

  it('a new file (oldText null) diffs against an empty left side and says so', async () => {
    assert.ok(await ctx.review.openDiff({ path: path.join(ctx.dir, 'new.txt'), oldText: null, newText: 'fresh\n' }));
    const tab = activeDiffTab();
    assert.ok(tab);
    assert.strictEqual((await vscode.workspace.openTextDocument(tab.original)).getText(), '');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /New File/);
  });

  it('refuses binary and 5 MB diffs with a clear message', async () => {
    assert.strictEqual(await ctx.review.openDiff({ path: path.join(ctx.dir, 'a.png'), oldText: '\u0089PNG\u0000\u0001', newText: 'x' }), false);
    assert.match(ctx.ui.last('error') ?? '', /binary file/);
    const big = 'line of text\n'.repeat(Math.ceil((5 * 1024 * 1024) / 13));
    assert.strictEqual(await ctx.review.openDiff({ path: path.join(ctx.dir, 'big.log'), oldText: big, newText: big + 'more\n' }), false);
    assert.match(ctx.ui.last('error') ?? '', /5\.0 MB, over the 2\.0 MB limit/);
  });

  it('warns about a path outside the workspace and refuses a relative one', async () => {
    assert.ok(await ctx.review.openDiff({ path: '/etc/hosts-switchboard-test', oldText: 'a\n', newText: 'b\n' }));
    assert.match(ctx.ui.last('warn') ?? '', /outside the workspace folders/);
    assert.strictEqual(await ctx.review.openDiff({ path: 'src/x.ts', oldText: 'a', newText: 'b' }), false);
    assert.match(ctx.ui.last('error') ?? '', /relative path/);
  });
});
