// Keep and Undo, per file, per turn and per hunk, with a history so each decision can itself be
// undone. Undo never overwrites the user's own later edits silently: when the file changed after the
// agent wrote it, only the agent's hunks are reverted, after asking, and the conflict can be shown.
import * as path from 'path';
import * as vscode from 'vscode';
import { ChangeEntry, TurnRef } from './changeStore';
import type { ChangeTracker } from './changeTracker';
import type { DiffOpener } from './review/diffOpener';
import { applyText, isAsBefore, readCurrent } from './fileAccess';
import { Hunk, classifyHunks, computeHunks, keepHunk, revertHunk, revertHunks } from './hunks';
import type { DiffLogger } from './types';
import type { DiffUi } from './review/ui';

/** Identifies a hunk between the baseline and the live text (offsets are re-checked before acting). */
export interface HunkRef {
  key: string;
  oldOffset: number;
  newOffset: number;
  oldLength: number;
  newLength: number;
}

export function hunkRef(key: string, h: Hunk): HunkRef {
  return { key, oldOffset: h.oldOffset, newOffset: h.newOffset, oldLength: h.oldText.length, newLength: h.newText.length };
}

interface Decision {
  kind: 'keep' | 'undo';
  /** Entries as they were before the decision. */
  entries: ChangeEntry[];
  /** For undo: each file's text before it was reverted (null = it did not exist). */
  texts: Map<string, string | null>;
}

interface UndoPlan {
  uri: string;
  /** The entries this undo resolves: the chosen one and every later one for the same file. */
  entries: ChangeEntry[];
  target: string | null;
  before: string | null;
  /** Set when the user changed the file after the agent wrote it. */
  conflict?: { agentText: string | null; keepsUserEdits: boolean };
}

export type ConflictPolicy = 'ask' | 'agentOnly' | 'cancel';

const UNDO_LABEL = 'Undo agent change';
const MAX_HISTORY = 50;
export const BUTTON_UNDO_AGENT_ONLY = "Undo Agent's Changes, Keep Mine";
export const BUTTON_SHOW_CONFLICTS = 'Show Conflicts';

export class ChangeDecisions implements vscode.Disposable {
  private readonly history: Decision[] = [];
  /** Files just undone: if Ctrl+Z brings back the exact pre-undo text, their entries come back too. */
  private readonly undone = new Map<string, { text: string; entries: ChangeEntry[] }>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly opener: DiffOpener,
    private readonly ui: DiffUi,
    private readonly log: DiffLogger,
  ) {
    this.sub = vscode.workspace.onDidChangeTextDocument((e) => {
      // Only the editor's own Undo revives: a reload after an agent writes the same text again is a new change.
      if (e.reason === vscode.TextDocumentChangeReason.Undo) this.maybeRevive(e.document);
    });
  }

  resolveTurn(turn?: TurnRef): TurnRef | undefined {
    return turn ?? this.tracker.store.latestTurn();
  }

  keepFile(key: string): boolean {
    const e = this.tracker.store.get(key);
    if (!e) return false;
    this.keepEntries([e]);
    return true;
  }

  keepTurn(turn?: TurnRef): number {
    const t = this.resolveTurn(turn);
    const entries = t ? this.tracker.store.forTurn(t) : [];
    if (entries.length === 0) void this.ui.info('There are no agent changes to keep.');
    this.keepEntries(entries);
    return entries.length;
  }

  private keepEntries(entries: readonly ChangeEntry[]): void {
    if (entries.length === 0) return;
    this.remember({ kind: 'keep', entries: entries.map((e) => ({ ...e })), texts: new Map() });
    for (const e of entries) {
      this.tracker.store.remove(e.key);
      this.undone.delete(e.uri);
    }
    this.tracker.persist();
    void this.tracker.refreshAll();
  }

  async undoFile(key: string, policy: ConflictPolicy = 'ask'): Promise<boolean> {
    const e = this.tracker.store.get(key);
    if (!e) return false;
    return this.undoEntries([e], policy);
  }

  async undoTurn(turn?: TurnRef, policy: ConflictPolicy = 'ask'): Promise<boolean> {
    const t = this.resolveTurn(turn);
    if (!t) {
      void this.ui.info('There are no agent changes to undo.');
      return false;
    }
    return this.undoEntries(this.tracker.store.forTurn(t), policy);
  }

  /** Restore each file to its content before the earliest of the given entries for it. */
  async undoEntries(entries: readonly ChangeEntry[], policy: ConflictPolicy): Promise<boolean> {
    const plans: UndoPlan[] = [];
    const refused: string[] = [];
    const byUri = new Map<string, ChangeEntry>();
    for (const e of entries) {
      const prev = byUri.get(e.uri);
      if (!prev || e.seq < prev.seq) byUri.set(e.uri, e);
    }
    for (const oldest of byUri.values()) {
      const plan = await this.planUndo(oldest);
      if (typeof plan === 'string') refused.push(plan);
      else plans.push(plan);
    }
    if (refused.length > 0) void this.ui.warn(refused.join(' '));
    const conflicts = plans.filter((p) => p.conflict);
    if (conflicts.length > 0) {
      const names = conflicts.map((p) => path.basename(vscode.Uri.parse(p.uri).path)).join(', ');
      let choice: string | undefined;
      if (policy === 'agentOnly') choice = BUTTON_UNDO_AGENT_ONLY;
      else if (policy === 'ask') {
        choice = await this.ui.ask(
          `${conflicts.length === 1 ? `"${names}" was` : `${conflicts.length} files were`} edited after the agent changed ${conflicts.length === 1 ? 'it' : 'them'}.`,
          `Undo reverts only the agent's changes in ${names} and keeps your edits. Nothing of yours is overwritten.`,
          [BUTTON_UNDO_AGENT_ONLY, BUTTON_SHOW_CONFLICTS],
        );
      }
      if (choice === BUTTON_SHOW_CONFLICTS) {
        for (const p of conflicts.slice(0, 3)) await this.opener.openConflict(vscode.Uri.parse(p.uri), p.conflict?.agentText ?? null, "Agent's Version");
        return false;
      }
      if (choice !== BUTTON_UNDO_AGENT_ONLY) return false;
    }
    let ok = plans.length > 0 || entries.length === 0;
    const decision: Decision = { kind: 'undo', entries: [], texts: new Map() };
    for (const p of plans) {
      const fileUri = vscode.Uri.parse(p.uri);
      this.tracker.writing.add(p.uri);
      try {
        const res = await applyText(fileUri, p.target, UNDO_LABEL);
        if (!res.ok) {
          ok = false;
          void this.ui.error(`Switchboard could not restore "${path.basename(fileUri.path)}" (VS Code refused the edit; is it read-only?).`);
          continue;
        }
        if (res.bypassedUndo) this.log.info(`diff review: ${fileUri.fsPath} has mixed line endings; restored on disk (Ctrl+Z cannot undo that).`);
      } finally {
        this.tracker.writing.delete(p.uri);
      }
      decision.entries.push(...p.entries.map((e) => ({ ...e })));
      decision.texts.set(p.uri, p.before);
      for (const e of p.entries) this.tracker.store.remove(e.key);
      if (p.before !== null) this.undone.set(p.uri, { text: p.before, entries: p.entries.map((e) => ({ ...e })) });
    }
    if (decision.entries.length > 0) this.remember(decision);
    this.tracker.persist();
    await this.tracker.refreshAll();
    return ok && refused.length === 0;
  }

  /** What undoing `oldest` (and every later entry for its file) would write, or why it cannot. */
  private async planUndo(oldest: ChangeEntry): Promise<UndoPlan | string> {
    const name = path.basename(vscode.Uri.parse(oldest.uri).path);
    const all = [oldest, ...this.tracker.store.laterForSameUri(oldest)];
    if (oldest.baseline === undefined) return `"${name}" can't be undone: Switchboard did not see it before the agent changed it.`;
    const baseline = oldest.baseline;
    const agentText = all[all.length - 1].agentText;
    const current = await readCurrent(vscode.Uri.parse(oldest.uri));
    if (current.kind === 'binary' || current.kind === 'tooLarge' || current.kind === 'error') {
      return `"${name}" can't be undone safely: it is now ${current.kind === 'binary' ? 'a binary file' : current.kind === 'tooLarge' ? 'too large to compare' : 'unreadable'}.`;
    }
    const plan = { uri: oldest.uri, entries: all };
    if (isAsBefore(baseline, current)) return { ...plan, target: baseline, before: current.kind === 'text' ? current.text : null };
    if (current.kind === 'missing') {
      if (agentText === null || agentText === undefined) return { ...plan, target: baseline, before: null };
      // The user deleted it after the agent wrote it: bringing the old content back loses nothing of theirs.
      return { ...plan, target: baseline, before: null, conflict: { agentText, keepsUserEdits: false } };
    }
    if (agentText === undefined || current.text === agentText) return { ...plan, target: baseline, before: current.text };
    if (agentText === null) return `"${name}" can't be undone: the agent deleted it and it was created again since.`;
    const owned = classifyHunks(baseline ?? '', agentText, current.text);
    if (!owned) return `"${name}" can't be undone: the diff is too complex to separate your edits from the agent's.`;
    if (owned.user.length === 0) return { ...plan, target: baseline, before: current.text };
    const target = revertHunks(current.text, owned.agent);
    return { ...plan, target, before: current.text, conflict: { agentText, keepsUserEdits: true } };
  }

  /** Accept one hunk: it becomes part of the baseline; the file is untouched. */
  async keepHunk(ref: HunkRef): Promise<boolean> {
    const found = await this.findHunk(ref);
    if (!found) return false;
    const { entry, hunk } = found;
    this.remember({ kind: 'keep', entries: [{ ...entry }], texts: new Map() });
    this.tracker.store.setBaseline(entry.key, keepHunk(entry.baseline ?? '', hunk));
    this.tracker.persistAndRefresh(entry.uri);
    return true;
  }

  /** Reject one hunk: the live document gets that hunk's old lines back (one undoable edit). */
  async undoHunk(ref: HunkRef): Promise<boolean> {
    const found = await this.findHunk(ref);
    if (!found) return false;
    const { entry, hunk, text } = found;
    const fileUri = vscode.Uri.parse(entry.uri);
    this.tracker.writing.add(entry.uri);
    try {
      const res = await applyText(fileUri, revertHunk(text, hunk), UNDO_LABEL);
      if (!res.ok) {
        void this.ui.error(`Switchboard could not change "${path.basename(fileUri.path)}".`);
        return false;
      }
    } finally {
      this.tracker.writing.delete(entry.uri);
    }
    this.remember({ kind: 'undo', entries: [{ ...entry }], texts: new Map([[entry.uri, text]]) });
    await this.tracker.refreshUri(entry.uri);
    return true;
  }

  private async findHunk(ref: HunkRef): Promise<{ entry: ChangeEntry; hunk: Hunk; text: string } | undefined> {
    const entry = this.tracker.store.get(ref.key);
    if (!entry || entry.baseline === undefined) return undefined;
    const current = await readCurrent(vscode.Uri.parse(entry.uri));
    if (current.kind !== 'text') return undefined;
    const hunk = computeHunks(entry.baseline ?? '', current.text)?.find(
      (h) => h.oldOffset === ref.oldOffset && h.newOffset === ref.newOffset && h.oldText.length === ref.oldLength && h.newText.length === ref.newLength,
    );
    if (!hunk) {
      void this.ui.info('That change moved since the CodeLens was shown; try again.');
      return undefined;
    }
    return { entry, hunk, text: current.text };
  }

  /** Undo the last Keep or Undo: the entries come back, and undone files get their agent text back. */
  async undoLastDecision(): Promise<boolean> {
    const d = this.history.pop();
    if (!d) {
      void this.ui.info('There is no review decision to undo.');
      return false;
    }
    for (const [uri, text] of d.texts) {
      this.tracker.writing.add(uri);
      try {
        await applyText(vscode.Uri.parse(uri), text, 'Redo agent change');
      } finally {
        this.tracker.writing.delete(uri);
      }
      this.undone.delete(uri);
    }
    this.tracker.store.restore(d.entries);
    this.tracker.persist();
    await this.tracker.refreshAll();
    return true;
  }

  private remember(d: Decision): void {
    this.history.push(d);
    if (this.history.length > MAX_HISTORY) this.history.shift();
  }

  private maybeRevive(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    const u = this.undone.get(key);
    if (!u || this.tracker.writing.has(key) || doc.getText() !== u.text) return;
    // Ctrl+Z after an Undo brought the agent's text back: show it for review again.
    this.undone.delete(key);
    this.tracker.store.restore(u.entries);
    this.tracker.persistAndRefresh(key);
  }

  dispose(): void {
    this.sub.dispose();
  }
}
