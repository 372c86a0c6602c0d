// Deciding before the write: a permission request that carries a diff is shown in the native diff
// editor (both sides virtual: the file is not written yet) with Accept/Reject in the editor title.
// The `switchboard.diffPending` context key is true while the active editor shows such a diff.
// Closing the editor does not answer the request; the chat card still can.
import * as path from 'path';
import * as vscode from 'vscode';
import { DiffContentProvider } from './contentProvider';
import type { DiffOpener } from './diffOpener';
import { proposalTitle, workspaceRoots } from './diffOpener';
import { DIFF_SCHEME } from './diffUri';
import { readCurrent } from '../fileAccess';
import { DiffProblem, inspectPath, inspectTexts, problemMessages } from '../inspect';
import { pickOption } from './pickOption';
import type { DiffLogger, PendingPermissionDiff } from '../types';
import type { DiffUi } from './ui';

export const CONTEXT_KEY = 'switchboard.diffPending';
export const BUTTON_ACCEPT_ANYWAY = 'Accept Anyway';
export const BUTTON_SHOW_CONFLICT = 'Show Conflict';

interface Pending {
  request: PendingPermissionDiff;
  left: vscode.Uri;
  right: vscode.Uri;
}

/** What `accept`/`reject` act on: a diff URI (editor title passes it), a request, or nothing (active editor). */
export type PendingTarget = vscode.Uri | { sessionId: string; requestId: string | number } | undefined;

function requestKey(sessionId: string, requestId: string | number): string {
  return JSON.stringify([sessionId, typeof requestId, requestId]);
}

export class PendingDiffReview implements vscode.Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly disposables: vscode.Disposable[] = [];
  private contextValue: boolean | undefined;

  constructor(
    private readonly provider: DiffContentProvider,
    private readonly opener: DiffOpener,
    private readonly ui: DiffUi,
    private readonly log: DiffLogger,
  ) {
    this.disposables.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateContext()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContext()),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
    );
    this.updateContext();
  }

  /** Register a pending permission diff (called for each permission request that carries one). */
  add(request: PendingPermissionDiff): void {
    const key = requestKey(request.sessionId, request.requestId);
    const old = this.pending.get(key);
    if (old) this.drop(key, old);
    const name = path.basename(request.path);
    const left = this.provider.put(request.oldText ?? '', name, true);
    const right = this.provider.put(request.newText, name, true);
    this.pending.set(key, { request, left, right });
    this.updateContext();
  }

  /** Register (if needed) and open the diff editor for a pending request. False with a message when refused. */
  async show(request: PendingPermissionDiff, options: { preserveFocus?: boolean } = {}): Promise<boolean> {
    const name = path.basename(request.path);
    const problem = inspectTexts(name, [request.oldText, request.newText]) ?? inspectPath(request.path, workspaceRoots());
    if (problem && problem.kind !== 'outsideWorkspace') {
      void this.ui.error(`${problem.message} Answer the permission request in the chat.`);
      return false;
    }
    const key = requestKey(request.sessionId, request.requestId);
    if (this.pending.get(key)?.request !== request) this.add(request);
    const p = this.pending.get(key);
    if (!p) return false;
    await vscode.commands.executeCommand('vscode.diff', p.left, p.right, proposalTitle(request.path, request.oldText === null), {
      preview: false,
      preserveFocus: options.preserveFocus,
    });
    this.updateContext();
    if (problem) void this.ui.warn(problem.message);
    const conflict = await this.checkConflict(request);
    if (conflict) void this.reportConflict(request, conflict);
    return true;
  }

  /** The request was answered elsewhere (chat card, cancel): forget it and close its editors. */
  resolved(sessionId: string, requestId: string | number): void {
    const key = requestKey(sessionId, requestId);
    const p = this.pending.get(key);
    if (p) this.drop(key, p);
  }

  list(): PendingPermissionDiff[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  async accept(target?: PendingTarget): Promise<boolean> {
    return this.decide(target, 'accept');
  }

  async reject(target?: PendingTarget): Promise<boolean> {
    return this.decide(target, 'reject');
  }

  private async decide(target: PendingTarget, decision: 'accept' | 'reject'): Promise<boolean> {
    const found = await this.find(target);
    if (!found) {
      void this.ui.info('There is no pending change to ' + decision + '.');
      return false;
    }
    const [key, p] = found;
    const option = pickOption(p.request.options, decision);
    if (!option) {
      void this.ui.error(`The agent offered no ${decision === 'accept' ? 'allow' : 'reject'} option for this change; answer it in the chat.`);
      return false;
    }
    if (decision === 'accept') {
      const conflict = await this.checkConflict(p.request);
      if (conflict) {
        const choice = await this.ui.ask(conflict.message, 'Switchboard will not overwrite your edits without asking.', [BUTTON_ACCEPT_ANYWAY, BUTTON_SHOW_CONFLICT]);
        if (choice === BUTTON_SHOW_CONFLICT) await this.opener.openConflict(vscode.Uri.file(p.request.path), p.request.oldText, "Agent's Base");
        if (choice !== BUTTON_ACCEPT_ANYWAY) return false;
      }
    }
    // Drop first: answering may synchronously trigger the write and new requests.
    this.drop(key, p);
    try {
      p.request.answer(option.optionId);
    } catch (err) {
      this.log.error(`diff review: answering permission request ${String(p.request.requestId)} failed: ${String(err)}`);
      return false;
    }
    return true;
  }

  /** A mismatch between what the agent thinks the file holds and what the user has now. */
  async checkConflict(request: PendingPermissionDiff): Promise<DiffProblem | undefined> {
    const name = path.basename(request.path);
    if (!path.isAbsolute(request.path)) return undefined;
    const current = await readCurrent(vscode.Uri.file(request.path));
    if (request.oldText === null) {
      return current.kind === 'missing' ? undefined : { kind: 'conflict', message: `"${name}" already exists, but the agent expects to create it. Accepting would replace it.` };
    }
    if (current.kind === 'missing') return { kind: 'deleted', message: problemMessages.deleted(name) };
    if (current.kind === 'binary') return { kind: 'binary', message: problemMessages.binary(name) };
    if (current.kind === 'text' && current.text !== request.oldText) return { kind: 'conflict', message: problemMessages.conflict(name) };
    return undefined;
  }

  private async reportConflict(request: PendingPermissionDiff, problem: DiffProblem): Promise<void> {
    const choice = await this.ui.warn(problem.message, BUTTON_SHOW_CONFLICT);
    if (choice === BUTTON_SHOW_CONFLICT) await this.opener.openConflict(vscode.Uri.file(request.path), request.oldText, "Agent's Base");
  }

  private async find(target: PendingTarget): Promise<[string, Pending] | undefined> {
    if (target instanceof vscode.Uri) return this.byUri(target);
    if (target && typeof target === 'object' && 'sessionId' in target) {
      const key = requestKey(target.sessionId, target.requestId);
      const p = this.pending.get(key);
      return p ? [key, p] : undefined;
    }
    const active = this.activePending();
    if (active) return active;
    const all = [...this.pending.entries()];
    if (all.length <= 1) return all[0];
    const pick = await vscode.window.showQuickPick(
      all.map(([key, p]) => ({ label: path.basename(p.request.path), description: p.request.path, key })),
      { placeHolder: 'Which pending change?' },
    );
    const p = pick ? this.pending.get(pick.key) : undefined;
    return pick && p ? [pick.key, p] : undefined;
  }

  private byUri(uri: vscode.Uri): [string, Pending] | undefined {
    if (uri.scheme !== DIFF_SCHEME) return undefined;
    const s = uri.toString();
    for (const [key, p] of this.pending) if (p.left.toString() === s || p.right.toString() === s) return [key, p];
    return undefined;
  }

  private activePending(): [string, Pending] | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) return this.byUri(input.modified) ?? this.byUri(input.original);
    return undefined;
  }

  private drop(key: string, p: Pending): void {
    this.pending.delete(key);
    void this.closeTabs(p);
    this.provider.delete(p.left);
    this.provider.delete(p.right);
    this.updateContext();
  }

  private async closeTabs(p: Pending): Promise<void> {
    const ours = (u: vscode.Uri) => u.toString() === p.left.toString() || u.toString() === p.right.toString();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && (ours(t.input.modified) || ours(t.input.original)));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  private updateContext(): void {
    const value = this.activePending() !== undefined;
    if (value === this.contextValue) return;
    this.contextValue = value;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, value);
  }

  /** For tests: the value last written to the context key. */
  get diffPendingContext(): boolean {
    return this.contextValue === true;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.pending.clear();
  }
}
