// Opening diff editors: an ACP diff (both sides virtual), a pending permission diff, and a changed
// file after the write (left = virtual baseline, right = the real file, so the diff editor's own
// revert arrows and typing on the right edit the file itself).
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChangeTracker } from '../changeTracker';
import { DiffContentProvider } from './contentProvider';
import { inspectPath, inspectTexts } from '../inspect';
import type { DiffUi } from './ui';

export interface AcpDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

export function proposalTitle(file: string, isNew: boolean): string {
  const base = path.basename(file);
  return isNew ? `${base} (New File, Proposed by Agent)` : `${base} (Proposed by Agent)`;
}

export function entryTitle(file: string, status: 'created' | 'modified' | 'deleted'): string {
  const base = path.basename(file);
  if (status === 'deleted') return `${base} (Deleted by Agent) ↔ Before`;
  return `${base}: Before Agent ↔ Now`;
}

export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export class DiffOpener implements vscode.Disposable {
  /** Left-side baseline docs per change entry, refreshed when a hunk is kept. */
  private readonly baselineDocs = new Map<string, vscode.Uri>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly provider: DiffContentProvider,
    private readonly tracker: ChangeTracker,
    private readonly ui: DiffUi,
  ) {
    this.sub = tracker.onDidChange(() => this.syncBaselines());
  }

  /** Show an ACP `diff` (e.g. from a chat tool-call card). Returns false with a message when refused. */
  async openAcpDiff(diff: AcpDiff, title?: string): Promise<boolean> {
    const name = path.basename(diff.path);
    const problem = inspectTexts(name, [diff.oldText, diff.newText]);
    if (problem) {
      void this.ui.error(problem.message);
      return false;
    }
    const where = inspectPath(diff.path, workspaceRoots());
    if (where?.kind === 'relative') {
      void this.ui.error(where.message);
      return false;
    }
    if (where) void this.ui.warn(where.message);
    const left = this.provider.put(diff.oldText ?? '', name, false);
    const right = this.provider.put(diff.newText, name, false);
    await vscode.commands.executeCommand('vscode.diff', left, right, title ?? proposalTitle(diff.path, diff.oldText === null), { preview: true });
    return true;
  }

  /** Show a changed file of a turn: virtual baseline on the left, the real file on the right. */
  async openEntryDiff(key: string, options: { preserveFocus?: boolean } = {}): Promise<boolean> {
    const entry = this.tracker.store.get(key);
    if (!entry) {
      void this.ui.info('That change was already kept or undone.');
      return false;
    }
    const fileUri = vscode.Uri.parse(entry.uri);
    const name = path.basename(fileUri.path);
    if (entry.baseline === undefined) {
      void this.ui.info(`Switchboard did not see "${name}" before the agent changed it, so there is no "before" to compare with.`);
      await vscode.window.showTextDocument(fileUri, { preview: true, preserveFocus: options.preserveFocus });
      return false;
    }
    const current = this.tracker.currentOf(key) ?? { kind: 'text' as const, text: '', fromBuffer: false };
    const textProblem = inspectTexts(name, [entry.baseline, current.kind === 'text' ? current.text : null]);
    if (current.kind === 'binary' || current.kind === 'tooLarge' || textProblem) {
      const message = textProblem?.message ?? (current.kind === 'binary' ? `"${name}" is a binary file; Switchboard can't show a text diff for it.` : `"${name}" is too large for a diff. Open the file to review it.`);
      void this.ui.warn(message);
      return false;
    }
    const left = this.baselineUri(key, entry.baseline ?? '', name);
    const summary = this.tracker.summaries().find((s) => s.key === key);
    const status = summary?.status ?? 'modified';
    // A deleted file has no real right side: compare with an empty virtual document instead.
    const right = current.kind === 'missing' ? this.provider.put('', name, false) : fileUri;
    await vscode.commands.executeCommand('vscode.diff', left, right, entryTitle(fileUri.fsPath, status), {
      preview: true,
      preserveFocus: options.preserveFocus,
    });
    return true;
  }

  /** Show the user's version against the text the agent based its change on. */
  async openConflict(fileUri: vscode.Uri, agentBase: string | null, label: string): Promise<void> {
    const name = path.basename(fileUri.path);
    const left = this.provider.put(agentBase ?? '', name, false);
    await vscode.commands.executeCommand('vscode.diff', left, fileUri, `${name}: ${label} ↔ Your Version`, { preview: true });
  }

  private baselineUri(key: string, baseline: string, name: string): vscode.Uri {
    const existing = this.baselineDocs.get(key);
    if (existing && this.provider.has(existing)) {
      this.provider.update(existing, baseline);
      return existing;
    }
    const uri = this.provider.put(baseline, name, true);
    this.baselineDocs.set(key, uri);
    return uri;
  }

  private syncBaselines(): void {
    for (const [key, uri] of this.baselineDocs) {
      const entry = this.tracker.store.get(key);
      // A decided entry's doc is dropped; an editor still showing it keeps its last text.
      if (entry && entry.baseline !== undefined) this.provider.update(uri, entry.baseline ?? '');
      else {
        this.provider.delete(uri);
        this.baselineDocs.delete(key);
      }
    }
  }

  dispose(): void {
    this.sub.dispose();
  }
}
