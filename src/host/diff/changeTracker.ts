// The live side of the changed-files model: feeds the pure ChangeStore from the fs bridge and file
// events, keeps added/removed counts in step with the open buffers, persists pending changes in a
// Memento, and exposes summaries for the chat and the tree view.
import * as path from 'path';
import * as vscode from 'vscode';
import { ChangeEntry, ChangeStore, PersistedChanges, TurnRef, entryKey } from './changeStore';
import { CurrentContent, isAsBefore, readCurrent } from './fileAccess';
import { Hunk, classifyHunks, computeHunks, sumCounts } from './hunks';
import { MAX_DIFF_BYTES, byteLength } from './inspect';
import type { AgentTouchedFileInput, ChangedFileSummary, DiffLogger, MementoLike, RecordWriteInput } from './types';

const STATE_KEY = 'switchboard.diff.pendingChanges';
/** Snapshots above this (chars, baseline + agent text) are kept in memory only. */
const MAX_PERSIST_CHARS = 4 * 1024 * 1024;
const REFRESH_DELAY_MS = 150;
/** Snapshot bounds: files the agent looks at are remembered until the turn ends, within these limits. */
const MAX_SNAPSHOTS = 500;
const MAX_SNAPSHOT_CHARS = 8 * 1024 * 1024;

interface Live {
  current: CurrentContent;
  /** Hunks baseline -> current, when both are text within the size limit. */
  hunks?: Hunk[];
  summary: ChangedFileSummary;
}

/** Accepts a file URI string or an absolute path. */
export function toUri(uriOrPath: string): vscode.Uri {
  return /^[a-zA-Z][\w+.-]+:/.test(uriOrPath) && !/^[a-zA-Z]:[\\/]/.test(uriOrPath) ? vscode.Uri.parse(uriOrPath) : vscode.Uri.file(uriOrPath);
}

export class ChangeTracker implements vscode.Disposable {
  readonly store = new ChangeStore();
  private readonly live = new Map<string, Live>();
  private readonly snapshots = new Map<string, string | null>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Entries the fs bridge wrote (the agent's writes for certain, whatever a save looked like). */
  private readonly bridgeWritten = new Set<string>();
  /** URIs Switchboard itself is writing (Undo): their events are not agent activity. */
  readonly writing = new Set<string>();
  /** Fires after the list, counts or hunks changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly memento: MementoLike,
    private readonly log: DiffLogger,
  ) {
    this.store.load(memento.get<PersistedChanges>(STATE_KEY));
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeTextDocument((e) => this.scheduleRefresh(e.document.uri.toString())),
      vscode.workspace.onDidSaveTextDocument((d) => this.scheduleRefresh(d.uri.toString())),
      vscode.workspace.onDidCloseTextDocument((d) => this.scheduleRefresh(d.uri.toString())),
    );
    if (this.store.all().length > 0) void this.refreshAll();
  }

  /** A write the fs bridge applied (call after the write; `before` includes unsaved buffer text). */
  recordWrite(input: RecordWriteInput): void {
    const uri = toUri(input.uri).toString();
    // The file was missing when the turn first named it, and the agent wrote it itself before this request
    // (OpenCode does both): it is new in this turn, whatever the bridge found on disk.
    const k = snapshotKey(input.sessionId, input.turnId, uri);
    const missingBefore = this.snapshots.has(k) && this.snapshots.get(k) === null && !this.store.has(entryKey(input.sessionId, input.turnId, uri));
    const entry = this.store.record({ sessionId: input.sessionId, turnId: input.turnId, uri, before: missingBefore ? null : input.before, after: input.after });
    this.bridgeWritten.add(entry.key);
    this.persistAndRefresh(uri);
  }

  /** Remember a file's content before the agent's own tools may touch it (e.g. on a pending edit tool call). */
  async snapshot(input: { sessionId: string; turnId: string; uri: string }): Promise<void> {
    const uri = toUri(input.uri);
    const k = snapshotKey(input.sessionId, input.turnId, uri.toString());
    if (this.snapshots.has(k)) return;
    const c = await readCurrent(uri);
    if (c.kind === 'text') this.putSnapshot(k, c.text);
    else if (c.kind === 'missing') this.putSnapshot(k, null);
  }

  /** Snapshots are bounded (count and size): the oldest go first, a huge file is not kept. */
  private putSnapshot(k: string, text: string | null): void {
    if (text !== null && text.length > MAX_SNAPSHOT_CHARS) return;
    this.snapshots.delete(k);
    this.snapshots.set(k, text);
    while (this.snapshots.size > MAX_SNAPSHOTS) {
      const oldest = this.snapshots.keys().next().value;
      if (oldest === undefined) break;
      this.snapshots.delete(oldest);
    }
  }

  hasSnapshot(sessionId: string, turnId: string, uri: string): boolean {
    return this.snapshots.has(snapshotKey(sessionId, turnId, uri));
  }

  /** The agent changed a file by itself; recorded when its content differs from what was seen before. */
  async recordAgentTouchedFile(input: AgentTouchedFileInput): Promise<void> {
    const uri = toUri(input.uri);
    const key = uri.toString();
    if (this.writing.has(key)) return;
    const k = snapshotKey(input.sessionId, input.turnId, key);
    let before = input.before !== undefined ? input.before : this.snapshots.has(k) ? this.snapshots.get(k) : undefined;
    const c = await readCurrent(uri);
    if (c.kind === 'error') return; // folders, unreadable files: nothing reviewable
    const after = c.kind === 'text' ? c.text : c.kind === 'missing' ? null : undefined;
    // The agent's own diff is the file's whole before and after only when the file now holds exactly its
    // new text (many agents send just the edited snippet, which must never become the file's baseline).
    if (before === undefined && input.diff && after === input.diff.newText) before = input.diff.oldText;
    if (before === undefined && !input.changed && !this.store.has(entryKey(input.sessionId, input.turnId, key))) {
      // First sighting of a location (maybe only read): remember it; a later call records a real change.
      if (after !== undefined) this.putSnapshot(k, after);
      return;
    }
    if (before !== undefined && after !== undefined && before === after) return;
    if (before === undefined && after === null) return; // never saw it, now gone: nothing to show or undo
    this.store.record({ sessionId: input.sessionId, turnId: input.turnId, uri: key, before, after });
    this.persist();
    await this.refreshUri(key);
  }

  /** A turn is over: its snapshots are no longer needed. */
  forgetSnapshots(sessionId: string, turnId: string): void {
    const prefix = snapshotKey(sessionId, turnId, '');
    for (const k of [...this.snapshots.keys()]) if (k.startsWith(prefix)) this.snapshots.delete(k);
  }

  summaries(turn?: TurnRef): ChangedFileSummary[] {
    const entries = turn ? this.store.forTurn(turn) : this.store.all();
    return entries.map((e) => this.live.get(e.key)?.summary ?? pendingSummary(e));
  }

  hunks(key: string): Hunk[] | undefined {
    return this.live.get(key)?.hunks;
  }

  currentOf(key: string): CurrentContent | undefined {
    return this.live.get(key)?.current;
  }

  /** Whether the fs bridge wrote this entry's file (then it is the agent's change, never the user's save). */
  writtenByBridge(key: string): boolean {
    return this.bridgeWritten.has(key);
  }

  /** Forget a change that turned out not to be the agent's. */
  drop(key: string): void {
    const e = this.store.remove(key);
    if (e) this.persistAndRefresh(e.uri);
  }

  isTracked(uri: string): boolean {
    return this.store.forUri(uri).length > 0;
  }

  /** Entries for a URI, oldest first. The CodeLens and per-hunk commands act on the newest. */
  entriesFor(uri: string): ChangeEntry[] {
    return this.store.forUri(uri);
  }

  persist(): void {
    void Promise.resolve(this.memento.update(STATE_KEY, this.store.toJSON(MAX_PERSIST_CHARS))).catch((err: unknown) =>
      this.log.warn(`diff review: could not persist pending changes: ${String(err)}`),
    );
  }

  persistAndRefresh(uri: string): void {
    this.persist();
    void this.refreshUri(uri);
  }

  async refreshAll(): Promise<void> {
    const uris = new Set(this.store.all().map((e) => e.uri));
    await Promise.all([...uris].map((u) => this.refreshUri(u, false)));
    this.changed.fire();
  }

  /** Re-read a tracked file and recompute its hunks and counts; drops entries that are back to baseline. */
  async refreshUri(uri: string, fire = true): Promise<void> {
    const entries = this.store.forUri(uri);
    for (const k of [...this.live.keys()]) if (!this.store.has(k)) this.live.delete(k);
    for (const k of [...this.bridgeWritten]) if (!this.store.has(k)) this.bridgeWritten.delete(k);
    if (entries.length === 0) {
      if (fire) this.changed.fire();
      return;
    }
    const current = await readCurrent(vscode.Uri.parse(uri));
    let removed = false;
    for (const e of entries) {
      if (isAsBefore(e.baseline, current)) {
        // Everything was kept or reverted (e.g. with the diff editor's arrows), or a file the agent created
        // is gone again: nothing left to review.
        this.store.remove(e.key);
        this.live.delete(e.key);
        removed = true;
        continue;
      }
      this.live.set(e.key, computeLive(e, current));
    }
    if (removed) this.persist();
    if (fire) this.changed.fire();
  }

  private scheduleRefresh(uri: string): void {
    if (!this.isTracked(uri)) return;
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        void this.refreshUri(uri);
      }, REFRESH_DELAY_MS),
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables) d.dispose();
  }
}

function snapshotKey(sessionId: string, turnId: string, uri: string): string {
  return JSON.stringify([sessionId, turnId]) + uri;
}

function baseSummary(e: ChangeEntry): Omit<ChangedFileSummary, 'status' | 'added' | 'removed' | 'countsKnown' | 'conflict' | 'note'> {
  const uri = vscode.Uri.parse(e.uri);
  return { key: e.key, sessionId: e.sessionId, turnId: e.turnId, uri: e.uri, path: uri.scheme === 'file' ? uri.fsPath : uri.path, undoable: e.baseline !== undefined };
}

function pendingSummary(e: ChangeEntry): ChangedFileSummary {
  return { ...baseSummary(e), status: e.baseline === null ? 'created' : 'modified', added: 0, removed: 0, countsKnown: false, conflict: false };
}

function computeLive(e: ChangeEntry, current: CurrentContent): Live {
  const base = baseSummary(e);
  const status: ChangedFileSummary['status'] = current.kind === 'missing' ? 'deleted' : e.baseline === null ? 'created' : 'modified';
  const conflict = userEditedSince(e, current);
  const summary: ChangedFileSummary = { ...base, status, added: 0, removed: 0, countsKnown: false, conflict };
  if (!base.undoable) summary.note = 'Switchboard did not see this file before the agent changed it: it can be kept, not undone.';
  const before = e.baseline ?? '';
  const after = current.kind === 'text' ? current.text : current.kind === 'missing' ? '' : undefined;
  if (after === undefined) {
    summary.note = current.kind === 'binary' ? 'Binary file: no line counts.' : current.kind === 'tooLarge' ? 'File too large for a diff.' : 'File could not be read.';
    return { current, summary };
  }
  if (e.baseline === undefined) return { current, summary };
  if (byteLength(before) > MAX_DIFF_BYTES || byteLength(after) > MAX_DIFF_BYTES) {
    summary.note = 'File too large for line counts.';
    return { current, summary };
  }
  const hunks = computeHunks(before, after);
  if (!hunks) return { current, summary };
  const counts = sumCounts(hunks);
  return { current, hunks, summary: { ...summary, ...counts, countsKnown: true } };
}

/**
 * Whether the file holds edits of the user's made after the agent wrote it. Text that differs from the
 * agent's only because some of the agent's hunks were reverted (per-hunk Undo, the diff editor's revert
 * arrows) is not the user's work: nothing of theirs could be lost, so it is no conflict.
 */
function userEditedSince(e: ChangeEntry, current: CurrentContent): boolean {
  if (e.agentText === undefined) return false;
  if (current.kind === 'missing') return e.agentText !== null;
  if (current.kind !== 'text' || current.text === e.agentText) return false;
  if (e.agentText === null || e.baseline === undefined) return true;
  const baseline = e.baseline ?? '';
  if (byteLength(baseline) > MAX_DIFF_BYTES || byteLength(e.agentText) > MAX_DIFF_BYTES || byteLength(current.text) > MAX_DIFF_BYTES) return true;
  const owned = classifyHunks(baseline, e.agentText, current.text);
  return !owned || owned.user.length > 0;
}

/** Short label for a file relative to its workspace folder. */
export function describePath(uri: string): string {
  const u = vscode.Uri.parse(uri);
  const folder = vscode.workspace.getWorkspaceFolder(u);
  return folder ? path.relative(folder.uri.fsPath, u.fsPath) : u.fsPath;
}
