// Deciding before the write: Accept/Reject of a permission diff from the diff editor.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PermissionSource, WriteSource } from '../../../src/host/diff/adapters';
import { connectPermissionBroker } from '../../../src/host/diff/adapters';
import { BUTTON_ACCEPT_ANYWAY } from '../../../src/host/diff/review/pendingReview';
import type { PendingPermissionDiff } from '../../../src/host/diff/types';
import type { FsBridge } from '../../../src/host/fs/fsBridge';
import type { PermissionBroker } from '../../../src/host/permissions/permissionBroker';
import { activeDiffTab, reviewPerTest, userEdit, waitUntil, writeFile } from './helpers';

// Compile-time: the real bridges fit the structural shapes the adapters take.
const _brokerFits = (b: PermissionBroker): PermissionSource => b;
const _bridgeFits = (b: FsBridge): WriteSource => b;
void _brokerFits;
void _bridgeFits;

const OPTIONS = [
  { optionId: 'always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  { optionId: 'never', name: 'Never', kind: 'reject_always' },
];

function request(file: string, oldText: string | null, newText: string, requestId: string | number = 0): PendingPermissionDiff & { answers: string[] } {
  const answers: string[] = [];
  return { sessionId: 'sess', requestId, path: file, oldText, newText, options: OPTIONS, answers, answer: (id) => answers.push(id) };
}

describe('diff review: deciding before the write', () => {
  const ctx = reviewPerTest();

  it('Accept answers allow_once, sets and clears switchboard.diffPending, closes the diff', async () => {
    const file = path.join(ctx.dir, 'a.ts');
    writeFile(file, 'old\n');
    const req = request(file, 'old\n', 'new\n');
    assert.ok(await ctx.review.showPendingPermissionDiff(req));
    const tab = activeDiffTab();
    assert.ok(tab);
    assert.strictEqual((await vscode.workspace.openTextDocument(tab.modified)).getText(), 'new\n');
    await waitUntil(() => ctx.review.pending.diffPendingContext, 'diffPending true');
    assert.ok(await ctx.review.pending.accept());
    assert.deepStrictEqual(req.answers, ['once']);
    await waitUntil(() => !ctx.review.pending.diffPendingContext, 'diffPending false');
    await waitUntil(() => activeDiffTab() === undefined, 'the diff tab to close');
    assert.strictEqual(ctx.review.pending.list().length, 0);
  });

  it('Reject (targeted by the editor-title URI) answers reject_once', async () => {
    const file = path.join(ctx.dir, 'b.ts');
    writeFile(file, 'x\n');
    const req = request(file, 'x\n', 'y\n', 'r1');
    await ctx.review.showPendingPermissionDiff(req);
    const tab = activeDiffTab();
    assert.ok(tab);
    assert.ok(await ctx.review.pending.reject(tab.modified));
    assert.deepStrictEqual(req.answers, ['no']);
  });

  it('falls back to the *_always option only when no one-shot option exists', async () => {
    const file = path.join(ctx.dir, 'c.ts');
    writeFile(file, 'x\n');
    const req = { ...request(file, 'x\n', 'z\n', 7), options: OPTIONS.filter((o) => o.kind.endsWith('always')) };
    const answers: string[] = [];
    req.answer = (id) => answers.push(id);
    ctx.review.addPendingPermissionDiff(req);
    assert.ok(await ctx.review.pending.accept({ sessionId: 'sess', requestId: 7 }));
    assert.deepStrictEqual(answers, ['always']);
  });

  it('closing the diff does not answer; the request stays pending until answered elsewhere', async () => {
    const file = path.join(ctx.dir, 'd.ts');
    writeFile(file, '1\n');
    const req = request(file, '1\n', '2\n', 'keep-open');
    await ctx.review.showPendingPermissionDiff(req);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitUntil(() => !ctx.review.pending.diffPendingContext, 'diffPending false after close');
    assert.deepStrictEqual(req.answers, []);
    assert.strictEqual(ctx.review.pending.list().length, 1);
    ctx.review.permissionResolved('sess', 'keep-open');
    assert.strictEqual(ctx.review.pending.list().length, 0);
    assert.deepStrictEqual(req.answers, []);
  });

  it('a file the user changed meanwhile: conflict shown, Accept asks and never answers silently', async () => {
    const file = path.join(ctx.dir, 'e.ts');
    const uri = writeFile(file, 'base\n');
    await userEdit(uri, 'base\nmine, unsaved\n');
    const req = request(file, 'base\n', 'base\nagent\n', 'conf');
    await ctx.review.showPendingPermissionDiff(req);
    await waitUntil(() => /changed after the agent read it/.test(ctx.ui.last('warn') ?? ''), 'the conflict warning');
    ctx.ui.answer = () => undefined; // the user cancels the modal
    assert.strictEqual(await ctx.review.pending.accept({ sessionId: 'sess', requestId: 'conf' }), false);
    assert.deepStrictEqual(req.answers, []);
    assert.match(ctx.ui.last('ask') ?? '', /overwrite your edits/);
    ctx.ui.answer = () => BUTTON_ACCEPT_ANYWAY;
    assert.ok(await ctx.review.pending.accept({ sessionId: 'sess', requestId: 'conf' }));
    assert.deepStrictEqual(req.answers, ['once']);
  });

  it('a deleted file and a binary or 5 MB proposal get clear messages', async () => {
    const gone = request(path.join(ctx.dir, 'gone.ts'), 'was here\n', 'edited\n', 'gone');
    await ctx.review.showPendingPermissionDiff(gone);
    await waitUntil(() => /no longer exists/.test(ctx.ui.last('warn') ?? ''), 'the deleted-file warning');
    const bin = request(path.join(ctx.dir, 'x.bin'), null, 'ab\u0000cd', 'bin');
    assert.strictEqual(await ctx.review.showPendingPermissionDiff(bin), false);
    assert.match(ctx.ui.last('error') ?? '', /binary file.*Answer the permission request in the chat/);
    const big = request(path.join(ctx.dir, 'big.txt'), null, 'y'.repeat(5 * 1024 * 1024), 'big');
    assert.strictEqual(await ctx.review.showPendingPermissionDiff(big), false);
    assert.match(ctx.ui.last('error') ?? '', /5\.0 MB/);
  });

  it('connectPermissionBroker: diffs in a request become pending; an answer elsewhere clears them', async () => {
    const requests = new vscode.EventEmitter<Parameters<Parameters<PermissionSource['onDidRequest']>[0]>[0]>();
    const resolves = new vscode.EventEmitter<{ prompt: { id: string; sessionId: string } }>();
    const resolved: [string, string][] = [];
    const source: PermissionSource = {
      onDidRequest: requests.event,
      onDidResolve: resolves.event,
      resolve: (id, optionId) => {
        resolved.push([id, optionId]);
        return true;
      },
    };
    const sub = connectPermissionBroker(ctx.review, source);
    const file = path.join(ctx.dir, 'f.ts');
    requests.fire({ id: 'perm_1', sessionId: 's', options: OPTIONS, toolCall: { toolCallId: 'tc_1', title: 'Edit f.ts', content: [{ type: 'diff', path: file, oldText: null, newText: 'n\n' }] } });
    requests.fire({ id: 'perm_2', sessionId: 's', options: OPTIONS, toolCall: { toolCallId: 'tc_2', content: [{ type: 'content', content: { type: 'text', text: 'no diff' } }, { type: 'diff', path: file, oldText: 'no newText' }] } });
    assert.strictEqual(ctx.review.pending.list().length, 1);
    assert.ok(await ctx.review.pending.reject({ sessionId: 's', requestId: 'perm_1' }));
    assert.deepStrictEqual(resolved, [['perm_1', 'no']]);
    requests.fire({ id: 'perm_3', sessionId: 's', options: OPTIONS, toolCall: { toolCallId: 'tc_3', content: [{ type: 'diff', path: file, oldText: null, newText: 'm\n' }] } });
    resolves.fire({ prompt: { id: 'perm_3', sessionId: 's' } });
    assert.strictEqual(ctx.review.pending.list().length, 0);
    sub.dispose();
    requests.dispose();
    resolves.dispose();
  });
});
