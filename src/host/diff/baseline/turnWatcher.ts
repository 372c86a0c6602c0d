// Notices files the agent changes by itself (its own edit tools, shell commands) during a turn. While
// the turn runs, file-system events under the session's folders become `recordAgentTouchedFile` calls (a
// new folder's event: the files in it, which the watcher may not report); when it ends, the turn's
// baseline (a snapshot taken before the prompt was sent) lists every file that differs, so nothing the
// watcher missed or saw too late is lost. What the user had is the "before":
// unsaved buffers at the start, the user's own saves during the turn, else the baseline on disk.
import * as path from 'path';
import * as vscode from 'vscode';
import type { TurnBaseline } from './baselines';
import { entryKey } from '../changeStore';
import type { ChangeTracker } from '../changeTracker';
import { readCurrent } from '../fileAccess';
import { isInsideAny } from '../inspect';
import { filesInNewFolder } from './newFolderFiles';
import type { DiffLogger } from '../types';

/** Folders whose churn is never the agent's reviewable work. */
const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);
/** Guard against a build or install flooding the list while the turn runs. */
const MAX_FILES_PER_TURN = 200;
/** File birth times come from a coarse kernel clock that can trail Date.now() by a few ms. */
const BIRTH_SLACK_MS = 250;
/** How long a file event waits for the save under way on its file to report. */
const SAVE_WAIT_MS = 3000;

interface ActiveTurn {
  sessionId: string;
  turnId: string;
  folders: string[];
  watchers: vscode.Disposable[];
  seen: Set<string>;
  startedAt: number;
  baseline: TurnBaseline | undefined;
  /** What the user had, by URI: unsaved buffers at the start, then each of the user's saves. */
  userTexts: Map<string, string>;
  /** URIs whose change this watcher recorded first (not the fs bridge). */
  recorded: Set<string>;
  /** File events being handled: the end of the turn waits for them. */
  handling: Set<Promise<void>>;
}

export class TurnWatcher implements vscode.Disposable {
  private readonly turns = new Map<string, ActiveTurn>();
  private readonly subs: vscode.Disposable[];
  /** Saves under way (between onWillSave and onDidSave), by URI. */
  private readonly saves = new Map<string, { saved: Promise<void>; done(): void }>();

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly log: DiffLogger,
  ) {
    this.subs = [
      // A save's file event can reach us before its onDidSave: an event for a file being saved waits for it.
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (e.document.uri.scheme === 'file') this.startSave(e.document.uri.toString());
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme !== 'file') return;
        const key = doc.uri.toString();
        for (const t of this.turns.values()) {
          if (!isInsideAny(t.folders, doc.uri.fsPath)) continue;
          // Switchboard's own Undo restores the baseline: nothing of the user's to remember.
          if (this.tracker.writing.has(key)) t.userTexts.delete(key);
          // A save by the user (or the fs bridge, which records its writes itself) is not the agent's
          // change: it becomes the "before" of a later one.
          else t.userTexts.set(key, doc.getText());
        }
        this.saves.get(key)?.done();
      }),
    ];
  }

  private startSave(key: string): void {
    this.saves.get(key)?.done();
    let done = (): void => undefined;
    const saved = new Promise<void>((resolve) => (done = resolve));
    // A save that fails never reports: its waiters go on after a while.
    const timer = setTimeout(() => entry.done(), SAVE_WAIT_MS);
    const entry = {
      saved,
      done: () => {
        clearTimeout(timer);
        if (this.saves.get(key) === entry) this.saves.delete(key);
        done();
      },
    };
    this.saves.set(key, entry);
  }

  /** Start watching a session's folders for a turn (absolute paths: the session cwd and additional directories). */
  beginTurn(sessionId: string, turnId: string, folders: readonly string[], baseline?: TurnBaseline): void {
    this.stop(sessionId);
    const turn: ActiveTurn = { sessionId, turnId, folders: [...folders], watchers: [], seen: new Set(), startedAt: Date.now(), baseline, userTexts: new Map(), recorded: new Set(), handling: new Set() };
    // Unsaved text is the user's; a clean buffer can lag behind an outside write, so with a baseline the
    // disk is trusted for those (without one, the buffer is the best there is).
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== 'file' || !isInsideAny(turn.folders, doc.uri.fsPath)) continue;
      if (doc.isDirty || !baseline) turn.userTexts.set(doc.uri.toString(), doc.getText());
    }
    for (const folder of turn.folders) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**/*'));
      turn.watchers.push(
        w,
        w.onDidChange((uri) => this.onEvent(turn, uri, false)),
        w.onDidCreate((uri) => this.onEvent(turn, uri, true)),
        w.onDidDelete((uri) => this.onEvent(turn, uri, false)),
      );
    }
    this.turns.set(sessionId, turn);
  }

  /**
   * What a file held before the running turn of a session touched it, as far as that is known: null =
   * it did not exist; undefined = unknown (no turn, no baseline, an ignored or binary file).
   */
  async beforeOf(sessionId: string, uri: vscode.Uri): Promise<string | null | undefined> {
    const turn = this.turns.get(sessionId);
    return turn ? this.before(turn, uri) : undefined;
  }

  /** The turn ended: every file that differs from its baseline is recorded, then watching stops. */
  async endTurn(sessionId: string): Promise<void> {
    const turn = this.turns.get(sessionId);
    if (!turn) return;
    // No new events: the comparison with the baseline below sees every change up to now.
    for (const d of turn.watchers) d.dispose();
    try {
      await Promise.allSettled([...turn.handling]);
      await this.dropUserSaves(turn);
      if (turn.baseline) await this.recordBaselineChanges(turn, turn.baseline);
    } catch (err) {
      this.log.warn(`diff review: could not compare the folders with the turn's baseline: ${String(err)}`);
    } finally {
      if (this.turns.get(sessionId) === turn) this.stop(sessionId);
    }
  }

  /**
   * A file event read while the user was saving can pass the user's save for the agent's change: a file
   * this watcher recorded that now holds exactly the user's last save is the user's.
   */
  private async dropUserSaves(turn: ActiveTurn): Promise<void> {
    for (const key of turn.recorded) {
      const saved = turn.userTexts.get(key);
      // The fs bridge saves what the agent wrote: that save is the agent's.
      if (saved === undefined || this.tracker.writtenByBridge(entryKey(turn.sessionId, turn.turnId, key))) continue;
      await this.saves.get(key)?.saved;
      const now = await readCurrent(vscode.Uri.parse(key));
      if (now.kind === 'text' && now.text === saved) this.tracker.drop(entryKey(turn.sessionId, turn.turnId, key));
    }
  }

  private async recordBaselineChanges(turn: ActiveTurn, baseline: TurnBaseline): Promise<void> {
    const { changes, truncated } = await baseline.changes();
    if (truncated > 0) this.log.warn(`diff review: the turn changed more than ${changes.length} files; ${truncated} more are not listed.`);
    for (const c of changes) {
      const uri = vscode.Uri.file(c.path);
      const key = uri.toString();
      if (this.tracker.writing.has(key)) continue;
      await this.saves.get(key)?.saved;
      const before = turn.userTexts.has(key) ? turn.userTexts.get(key) : c.before;
      await this.tracker
        .recordAgentTouchedFile({ sessionId: turn.sessionId, turnId: turn.turnId, uri: key, before, changed: true })
        .catch((err: unknown) => this.log.warn(`diff review: could not record ${c.path}: ${String(err)}`));
    }
  }

  private stop(sessionId: string): void {
    const t = this.turns.get(sessionId);
    if (!t) return;
    for (const d of t.watchers) d.dispose();
    this.turns.delete(sessionId);
    this.tracker.forgetSnapshots(t.sessionId, t.turnId);
  }

  private async before(turn: ActiveTurn, uri: vscode.Uri): Promise<string | null | undefined> {
    const key = uri.toString();
    if (turn.userTexts.has(key)) return turn.userTexts.get(key);
    return turn.baseline?.before(uri.fsPath);
  }

  private onEvent(turn: ActiveTurn, uri: vscode.Uri, created: boolean): Promise<void> | undefined {
    const key = uri.toString();
    if (this.tracker.writing.has(key)) return;
    if (uri.fsPath.split(path.sep).some((s) => IGNORED_SEGMENTS.has(s))) return;
    if (!turn.seen.has(key) && turn.seen.size >= MAX_FILES_PER_TURN) return;
    const handled = this.handle(turn, uri, created)
      .catch((err: unknown) => this.log.warn(`diff review: could not record ${uri.fsPath}: ${String(err)}`))
      .finally(() => turn.handling.delete(handled));
    turn.handling.add(handled);
    return handled;
  }

  private async handle(turn: ActiveTurn, uri: vscode.Uri, created: boolean): Promise<void> {
    const key = uri.toString();
    const stat = created ? await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined) : undefined;
    if (stat && stat.type & vscode.FileType.Directory) {
      // The files written into a new folder at once may never be reported (newFolderFiles.ts).
      const files = await filesInNewFolder(uri, MAX_FILES_PER_TURN - turn.seen.size, IGNORED_SEGMENTS);
      await Promise.all(files.map((file) => this.onEvent(turn, file, true)));
      return;
    }
    turn.seen.add(key);
    await this.saves.get(key)?.saved;
    let before = await this.before(turn, uri);
    // Where the baseline cannot tell (no git, an ignored file), a file created during the turn did not
    // exist before it; a late event for an older file (watcher latency) must not pass for that, or Undo
    // would delete the user's file. Its birth time decides.
    if (before === undefined && created && !this.tracker.hasSnapshot(turn.sessionId, turn.turnId, key)) {
      if (stat && stat.ctime > 0 && stat.ctime >= turn.startedAt - BIRTH_SLACK_MS) before = null;
      else this.log.debug(`diff review: ${uri.fsPath} created before the turn (birth ${stat?.ctime}, turn ${turn.startedAt})`);
    }
    // A save of the user's that reported meanwhile is what the user had.
    if (turn.userTexts.has(key)) before = turn.userTexts.get(key);
    const known = this.tracker.store.has(entryKey(turn.sessionId, turn.turnId, key));
    await this.tracker.recordAgentTouchedFile({ sessionId: turn.sessionId, turnId: turn.turnId, uri: key, before, changed: true });
    if (!known && this.tracker.store.has(entryKey(turn.sessionId, turn.turnId, key))) turn.recorded.add(key);
  }

  dispose(): void {
    for (const id of [...this.turns.keys()]) this.stop(id);
    for (const s of [...this.saves.values()]) s.done();
    for (const d of this.subs) d.dispose();
  }
}
