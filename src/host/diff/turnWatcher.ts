// Notices files the agent changes by itself (its own edit tools, shell commands) during a turn:
// file-system events under the session's folders become `recordAgentTouchedFile` calls. Open buffers
// are snapshotted when the turn starts so those files can be undone exactly, unsaved text included.
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChangeTracker } from './changeTracker';
import { readCurrent } from './fileAccess';
import { isInsideAny } from './inspect';
import type { DiffLogger } from './types';

/** Folders whose churn is never the agent's reviewable work. */
const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);
/** Guard against a build or install flooding the list. */
const MAX_FILES_PER_TURN = 200;
/** File birth times come from a coarse kernel clock that can trail Date.now() by a few ms. */
const BIRTH_SLACK_MS = 250;

interface ActiveTurn {
  sessionId: string;
  turnId: string;
  folders: string[];
  watchers: vscode.Disposable[];
  seen: Set<string>;
  startedAt: number;
}

export class TurnWatcher implements vscode.Disposable {
  private readonly turns = new Map<string, ActiveTurn>();
  /** Text of the last save per file: an event whose disk content equals it is that save, not the agent. */
  private readonly userSaves = new Map<string, string>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly log: DiffLogger,
  ) {
    this.sub = vscode.workspace.onDidSaveTextDocument((doc) => {
      const key = doc.uri.toString();
      // Saves come from the user or from the fs bridge (which reports its writes itself).
      if (this.tracker.writing.has(key)) return;
      const text = doc.getText();
      this.userSaves.set(key, text);
      // What the user saved mid-turn is theirs: it becomes the "before" for a later agent change.
      for (const t of this.turns.values()) {
        if (doc.uri.scheme === 'file' && isInsideAny(t.folders, doc.uri.fsPath)) this.tracker.snapshotText(t.sessionId, t.turnId, key, text, true);
      }
    });
  }

  /** Start watching a session's folders for a turn (absolute paths: the session cwd and additional directories). */
  beginTurn(sessionId: string, turnId: string, folders: readonly string[]): void {
    this.endTurn(sessionId);
    const turn: ActiveTurn = { sessionId, turnId, folders: [...folders], watchers: [], seen: new Set(), startedAt: Date.now() };
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === 'file' && isInsideAny(turn.folders, doc.uri.fsPath)) this.tracker.snapshotText(sessionId, turnId, doc.uri.toString(), doc.getText());
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

  endTurn(sessionId: string): void {
    const t = this.turns.get(sessionId);
    if (!t) return;
    for (const d of t.watchers) d.dispose();
    this.turns.delete(sessionId);
    this.tracker.forgetSnapshots(t.sessionId, t.turnId);
  }

  private onEvent(turn: ActiveTurn, uri: vscode.Uri, created: boolean): void {
    const key = uri.toString();
    if (this.tracker.writing.has(key)) return;
    if (uri.fsPath.split(path.sep).some((s) => IGNORED_SEGMENTS.has(s))) return;
    if (!turn.seen.has(key) && turn.seen.size >= MAX_FILES_PER_TURN) return;
    void this.handle(turn, uri, created).catch((err: unknown) => this.log.warn(`diff review: could not record ${uri.fsPath}: ${String(err)}`));
  }

  private async handle(turn: ActiveTurn, uri: vscode.Uri, created: boolean): Promise<void> {
    const key = uri.toString();
    const saved = this.userSaves.get(key);
    if (saved !== undefined) {
      const now = await readCurrent(uri);
      if (now.kind === 'text' && now.text === saved) return; // the echo of a save in VS Code
    }
    turn.seen.add(key);
    // A file created during the turn did not exist before it; a late event for an older file (watcher
    // latency) must not pass for that, or Undo would delete the user's file. Its birth time decides.
    let before: null | undefined;
    if (created && !this.tracker.hasSnapshot(turn.sessionId, turn.turnId, key)) {
      const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
      if (stat && stat.ctime > 0 && stat.ctime >= turn.startedAt - BIRTH_SLACK_MS) before = null;
      else this.log.debug(`diff review: ${uri.fsPath} created before the turn (birth ${stat?.ctime}, turn ${turn.startedAt})`);
    }
    await this.tracker.recordAgentTouchedFile({ sessionId: turn.sessionId, turnId: turn.turnId, uri: key, before, changed: true });
  }

  dispose(): void {
    for (const id of [...this.turns.keys()]) this.endTurn(id);
    this.sub.dispose();
  }
}
