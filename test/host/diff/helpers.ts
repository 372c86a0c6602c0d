// Shared pieces for the diff-review host tests: a fake UI that records messages and answers modal
// questions, an in-memory Memento, temp files in the workspace, an fs-bridge-like agent write, and the
// per-test setup every diff test file shares (reviewPerTest).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { DiffReview } from '../../../src/host/diff/index';
import type { DiffLogger, MementoLike } from '../../../src/host/diff/types';
import type { DiffUi } from '../../../src/host/diff/review/ui';
import { workspaceRoot } from '../index';

export class FakeUi implements DiffUi {
  readonly messages: { level: 'ask' | 'info' | 'warn' | 'error'; message: string }[] = [];
  /** What modal questions answer (undefined = cancel). */
  answer: (message: string, buttons: readonly string[]) => string | undefined = () => undefined;
  async ask(message: string, _detail: string | undefined, buttons: readonly string[]): Promise<string | undefined> {
    this.messages.push({ level: 'ask', message });
    return this.answer(message, buttons);
  }
  async info(message: string): Promise<string | undefined> {
    this.messages.push({ level: 'info', message });
    return undefined;
  }
  async warn(message: string): Promise<string | undefined> {
    this.messages.push({ level: 'warn', message });
    return undefined;
  }
  async error(message: string): Promise<string | undefined> {
    this.messages.push({ level: 'error', message });
    return undefined;
  }
  last(level: 'ask' | 'info' | 'warn' | 'error'): string | undefined {
    return [...this.messages].reverse().find((m) => m.level === level)?.message;
  }
}

export class MemoryMemento implements MementoLike {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    // Round-trip through JSON like workspaceState does.
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, value);
  }
}

/** Log lines of every review built by these helpers, for failure messages. */
export const logLines: string[] = [];
const keep = (m: string | Error) => void logLines.push(String(m));
export const silentLog: DiffLogger = { info: keep, warn: keep, error: keep, debug: keep };

export function makeReview(ui = new FakeUi(), memento = new MemoryMemento()): { review: DiffReview; ui: FakeUi; memento: MemoryMemento; registration: vscode.Disposable } {
  const review = new DiffReview({ memento, log: silentLog, ui });
  // A second instance next to the extension's own: no commands or tree view (those ids are taken).
  const registration = review.register({ commands: false, treeView: false });
  return { review, ui, memento, registration };
}

export interface ReviewPerTest {
  review: DiffReview;
  ui: FakeUi;
  memento: MemoryMemento;
  /** A fresh folder under the workspace for the test's files. */
  dir: string;
}

/**
 * Call inside a `describe`: each test gets a fresh review (fake UI, in-memory Memento) and folder;
 * afterwards its editors are closed (dirty buffers reverted) and the review is disposed. The returned
 * object is filled in before each test.
 */
export function reviewPerTest(): ReviewPerTest {
  const ctx = {} as ReviewPerTest;
  let registration: vscode.Disposable | undefined;
  beforeEach(async () => {
    const made = makeReview(new FakeUi());
    registration = made.registration;
    Object.assign(ctx, { review: made.review, ui: made.ui, memento: made.memento, dir: await tempDir() });
  });
  afterEach(async () => {
    await closeAllEditors();
    registration?.dispose();
    ctx.review.dispose();
  });
  return ctx;
}

/** Polls `check` every 50 ms until it holds. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let testsRoot: Promise<string> | undefined;
/**
 * The workspace folder the tests' folders go in, once the workspace's file watcher reports it. Created with
 * the first test's folder in one go, the watcher (parcel, inotify) could see the outer folder appear only
 * after the inner one was made, never watch the inner one, and report no change in it for the whole run.
 */
function watchedTestsRoot(): Promise<string> {
  testsRoot ??= (async () => {
    const root = path.join(workspaceRoot(), 'diff-tests');
    if (fs.existsSync(root)) return root;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(workspaceRoot()), 'diff-tests'), false, true, true);
    let reported = false;
    try {
      watcher.onDidCreate(() => (reported = true));
      fs.mkdirSync(root);
      await waitUntil(() => reported, `the workspace's file watcher to report ${root}`, 20_000);
      return root;
    } finally {
      watcher.dispose();
    }
  })();
  return testsRoot;
}

let n = 0;
/** A fresh folder under the workspace for one test, inside a folder the file watcher watches. */
export async function tempDir(): Promise<string> {
  const dir = path.join(await watchedTestsRoot(), `${process.pid}-${Date.now()}-${++n}`);
  fs.mkdirSync(dir);
  return dir;
}

export function writeFile(file: string, content: string | Uint8Array): vscode.Uri {
  fs.writeFileSync(file, content);
  return vscode.Uri.file(file);
}

export function diskText(uri: vscode.Uri): string {
  return fs.readFileSync(uri.fsPath, 'utf8');
}

export function fullRange(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
}

/** What the fs bridge does: replace the buffer through a WorkspaceEdit and save. Returns the text before. */
export async function agentWrite(uri: vscode.Uri, content: string): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(uri);
  // A file the test just wrote with `fs` may not be loaded yet: wait until the buffer shows it.
  const deadline = Date.now() + 5000;
  while (!doc.isDirty && doc.getText() !== fs.readFileSync(uri.fsPath, 'utf8') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const before = doc.getText();
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, fullRange(doc), content);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('agent write refused');
  if (!(await doc.save())) throw new Error('agent save failed');
  return before;
}

/** The user types into the buffer without saving. */
export async function userEdit(uri: vscode.Uri, content: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, fullRange(doc), content);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('user edit refused');
  return doc;
}

/** Close every editor without "save changes?" prompts (dirty buffers are reverted first). */
export async function closeAllEditors(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function activeDiffTab(): vscode.TabInputTextDiff | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input : undefined;
}
