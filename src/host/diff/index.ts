// Diff review: the one object the extension constructs. It owns the virtual documents, the
// before-write review of permission diffs, the per-turn changed-files model with Keep/Undo, the tree
// view, the per-hunk CodeLenses and follow-along. The session layer feeds it; extension.ts registers it.
import * as vscode from 'vscode';
import { type BaselineChange, Baselines, type FolderSnapshot } from './baseline/baselines';
import { ChangeDecisions, ConflictPolicy } from './changeDecisions';
import type { CheckpointTrees } from './baseline/checkpointTrees';
import type { TurnRef } from './changeStore';
import { ChangedFilesTree, VIEW_ID } from './review/changedFilesTree';
import { ChangeTracker } from './changeTracker';
import { registerDiffCommands } from './review/commands';
import { DiffContentProvider } from './review/contentProvider';
import { AcpDiff, DiffOpener } from './review/diffOpener';
import { FollowAgent } from './review/follow';
import { HunkCodeLensProvider } from './review/hunkCodeLens';
import { PendingDiffReview } from './review/pendingReview';
import { TurnWatcher } from './baseline/turnWatcher';
import type { AgentTouchedFileInput, ChangedFileSummary, DiffLogger, MementoLike, PendingPermissionDiff, RecordWriteInput } from './types';
import { DiffUi, windowUi } from './review/ui';

export type { AgentTouchedFileInput, BaselineChange, FolderSnapshot, ChangedFileSummary, DiffLogger, MementoLike, PendingPermissionDiff, RecordWriteInput, TurnRef, AcpDiff };

export interface DiffReviewOptions {
  /** Where pending changes persist across reloads: `context.workspaceState`. */
  memento: MementoLike;
  log: DiffLogger;
  /** Prompts; defaults to `vscode.window` messages (tests inject answers). */
  ui?: DiffUi;
  /**
   * Where each turn's baseline (a shadow Git repository per folder) is kept: the extension's global
   * storage. Without it, changed files come from the fs bridge, file events and tool calls only.
   */
  storageDir?: string;
}

export interface RegisterOptions {
  /** Register the `switchboard.*` diff commands (default true; tests with a second instance pass false). */
  commands?: boolean;
  /**
   * The `switchboard.changedFiles` tree view: created here (true, the default), none (false), or one created
   * earlier that this tree's data is connected to (activation creates it before the services start).
   */
  treeView?: boolean | ExistingTreeView;
}

export interface ExistingTreeView {
  view: vscode.TreeView<unknown>;
  connect(tree: vscode.TreeDataProvider<unknown>): void;
}

export class DiffReview implements vscode.Disposable {
  readonly provider = new DiffContentProvider();
  readonly tracker: ChangeTracker;
  readonly opener: DiffOpener;
  readonly decisions: ChangeDecisions;
  readonly pending: PendingDiffReview;
  readonly watcher: TurnWatcher;
  readonly follow: FollowAgent;
  readonly tree: ChangedFilesTree;
  readonly codeLens: HunkCodeLensProvider;
  private readonly baselines: Baselines | undefined;
  private checkpointTrees: Promise<CheckpointTrees | undefined> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(options: DiffReviewOptions) {
    const ui = options.ui ?? windowUi;
    this.tracker = new ChangeTracker(options.memento, options.log);
    this.opener = new DiffOpener(this.provider, this.tracker, ui);
    this.decisions = new ChangeDecisions(this.tracker, this.opener, ui, options.log);
    this.pending = new PendingDiffReview(this.provider, this.opener, ui, options.log);
    this.watcher = new TurnWatcher(this.tracker, options.log);
    this.follow = new FollowAgent(options.log);
    this.tree = new ChangedFilesTree(this.tracker);
    this.codeLens = new HunkCodeLensProvider(this.tracker);
    this.baselines = options.storageDir ? new Baselines(options.storageDir, options.log) : undefined;
    // Dispose in reverse dependency order.
    this.disposables.push(this.codeLens, this.tree, this.watcher, ...(this.baselines ? [this.baselines] : []), this.pending, this.decisions, this.opener, this.tracker, this.provider);
  }

  /** Register the content provider, CodeLenses, commands and tree view. Dispose the result (or this). */
  register(options: RegisterOptions = {}): vscode.Disposable {
    const regs: vscode.Disposable[] = [this.provider.register(), this.codeLens.register()];
    if (options.commands !== false) {
      regs.push(...registerDiffCommands({ tracker: this.tracker, decisions: this.decisions, opener: this.opener, pending: this.pending }));
    }
    if (options.treeView !== false) {
      const existing = typeof options.treeView === 'object' ? options.treeView : undefined;
      const view = existing?.view ?? vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree });
      existing?.connect(this.tree);
      const updateBadge = () => {
        const n = this.tracker.store.all().length;
        view.badge = n > 0 ? { value: n, tooltip: `${n} changed file${n === 1 ? '' : 's'} to review` } : undefined;
      };
      if (!existing) regs.push(view);
      regs.push(this.tracker.onDidChange(updateBadge));
      updateBadge();
    }
    const all = vscode.Disposable.from(...regs);
    this.disposables.unshift(all);
    return all;
  }

  // ---- before the write -------------------------------------------------------------------------

  /** A permission request carries a diff: make it reviewable (Accept/Reject in the diff editor title). */
  addPendingPermissionDiff(request: PendingPermissionDiff): void {
    this.pending.add(request);
  }

  /** Open the pending diff in the diff editor (the chat card's "Review" button). */
  showPendingPermissionDiff(request: PendingPermissionDiff, options?: { preserveFocus?: boolean }): Promise<boolean> {
    return this.pending.show(request, options);
  }

  /** The request was answered elsewhere (chat, cancel, timeout): forget it and close its diff. */
  permissionResolved(sessionId: string, requestId: string | number): void {
    this.pending.resolved(sessionId, requestId);
  }

  // ---- diffs from tool calls ----------------------------------------------------------------------

  /** Show an ACP `diff` content item (oldText null = new file). */
  openDiff(diff: AcpDiff, title?: string): Promise<boolean> {
    return this.opener.openAcpDiff(diff, title);
  }

  // ---- after the write ----------------------------------------------------------------------------

  /**
   * Call when a turn starts, before the prompt is sent: takes the folders' baseline, remembers their open
   * buffers and watches them.
   */
  /** A session opened on these folders: their first baseline starts now, in the background. */
  prepareFolders(folders: readonly string[]): void {
    this.baselines?.warm(folders);
  }

  /** `label`: the turn's name in the Changed Files tree (its session's title and number). */
  async beginTurn(sessionId: string, turnId: string, folders: readonly string[], label: string): Promise<FolderSnapshot[] | undefined> {
    this.tree.label({ sessionId, turnId }, label);
    const baseline = await this.baselines?.take(folders);
    this.watcher.beginTurn(sessionId, turnId, folders, baseline);
    return baseline?.snapshots;
  }

  /**
   * The files that differ now from a turn's baseline (the snapshots `beginTurn` returned), each with its
   * content then: what restoring a checkpoint writes back. Undefined without baselines (no git).
   */
  async changesSince(snapshots: readonly FolderSnapshot[]): Promise<{ changes: BaselineChange[]; truncated: number } | undefined> {
    return this.baselines ? (await this.baselines.reopen(snapshots)).changes() : undefined;
  }

  /** Restoring files to a turn's start (undefined without baselines), loaded on first use. */
  checkpoints(): Promise<CheckpointTrees | undefined> {
    const b = this.baselines;
    return (this.checkpointTrees ??= b ? import('./baseline/checkpointTrees').then((m) => new m.CheckpointTrees(b)) : Promise.resolve(undefined));
  }

  /** Call when the turn ends (any stop reason): records every file that differs from the baseline. */
  endTurn(sessionId: string): Promise<void> {
    return this.watcher.endTurn(sessionId);
  }

  /** A file's content before the session's running turn touched it (null = none; undefined = unknown). */
  beforeOf(sessionId: string, uri: vscode.Uri): Promise<string | null | undefined> {
    return this.watcher.beforeOf(sessionId, uri);
  }

  /** The fs bridge applied a write (call after it; `before` = buffer text incl. unsaved, null = new file). */
  recordWrite(input: RecordWriteInput): void {
    this.tracker.recordWrite(input);
  }

  /** The agent changed a file by itself (a completed tool call's locations, or a file event). */
  recordAgentTouchedFile(input: AgentTouchedFileInput): Promise<void> {
    return this.tracker.recordAgentTouchedFile(input);
  }

  /** Changed files (of one turn, or all pending), for the chat. */
  changedFiles(turn?: TurnRef): ChangedFileSummary[] {
    return this.tracker.summaries(turn);
  }

  /** Turns with pending changes, oldest first. */
  pendingTurns(): TurnRef[] {
    return this.tracker.store.turns();
  }

  get onDidChangeChangedFiles(): vscode.Event<void> {
    return this.tracker.onDidChange;
  }

  keepFile(key: string): boolean {
    return this.decisions.keepFile(key);
  }

  undoFile(key: string, policy: ConflictPolicy = 'ask'): Promise<boolean> {
    return this.decisions.undoFile(key, policy);
  }

  /** Keep All for a turn (default: the latest turn with pending changes). Returns the number of files. */
  keepAll(turn?: TurnRef): number {
    return this.decisions.keepTurn(turn);
  }

  /** Undo All for a turn (default: the latest). */
  undoAll(turn?: TurnRef, policy: ConflictPolicy = 'ask'): Promise<boolean> {
    return this.decisions.undoTurn(turn, policy);
  }

  // ---- follow along -------------------------------------------------------------------------------

  /** Reveal a tool-call location when `switchboard.followAgent` is on (1-based line). */
  followLocation(path: string, line?: number): Promise<boolean> {
    return this.follow.followLocation(path, line);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}
