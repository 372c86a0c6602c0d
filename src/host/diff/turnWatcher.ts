// Notices files the agent changes by itself (its own edit tools, shell commands) during a turn:
// file-system events under the session's folders become `recordAgentTouchedFile` calls. Open buffers
// are snapshotted when the turn starts so those files can be undone exactly, unsaved text included.
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChangeTracker } from './changeTracker';
import { isInsideAny } from './inspect';
import type { DiffLogger } from './types';

/** Folders whose churn is never the agent's reviewable work. */
const IGNORED_SEGMENTS = new Set(['.git', 'node_modules']);
/** Guard against a build or install flooding the list. */
const MAX_FILES_PER_TURN = 200;
/** A save the user made this recently explains a file event; it is not the agent's. */
const USER_SAVE_WINDOW_MS = 2000;

interface ActiveTurn {
  sessionId: string;
  turnId: string;
  folders: string[];
  watchers: vscode.Disposable[];
  seen: Set<string>;
}

export class TurnWatcher implements vscode.Disposable {
  private readonly turns = new Map<string, ActiveTurn>();
  private readonly userSaves = new Map<string, number>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly tracker: ChangeTracker,
    private readonly log: DiffLogger,
  ) {
    this.sub = vscode.workspace.onWillSaveTextDocument((e) => {
      // Saves come from the user or from the fs bridge (which reports its writes itself).
      if (!this.tracker.writing.has(e.document.uri.toString())) this.userSaves.set(e.document.uri.toString(), Date.now());
    });
  }

  /** Start watching a session's folders for a turn (absolute paths: the session cwd and additional directories). */
  beginTurn(sessionId: string, turnId: string, folders: readonly string[]): void {
    this.endTurn(sessionId);
    const turn: ActiveTurn = { sessionId, turnId, folders: [...folders], watchers: [], seen: new Set() };
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === 'file' && isInsideAny(turn.folders, doc.uri.fsPath)) this.tracker.snapshotText(sessionId, turnId, doc.uri.toString(), doc.getText());
    }
    for (const folder of turn.folders) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '**/*'));
      const on = (uri: vscode.Uri) => this.onEvent(turn, uri);
      turn.watchers.push(w, w.onDidChange(on), w.onDidCreate(on), w.onDidDelete(on));
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

  private onEvent(turn: ActiveTurn, uri: vscode.Uri): void {
    const key = uri.toString();
    if (this.tracker.writing.has(key)) return;
    if (uri.fsPath.split(path.sep).some((s) => IGNORED_SEGMENTS.has(s))) return;
    const savedAt = this.userSaves.get(key);
    if (savedAt !== undefined && Date.now() - savedAt < USER_SAVE_WINDOW_MS) return;
    if (!turn.seen.has(key) && turn.seen.size >= MAX_FILES_PER_TURN) return;
    turn.seen.add(key);
    void this.tracker.recordAgentTouchedFile({ sessionId: turn.sessionId, turnId: turn.turnId, uri: key }).catch((err: unknown) =>
      this.log.warn(`diff review: could not record ${uri.fsPath}: ${String(err)}`),
    );
  }

  dispose(): void {
    for (const id of [...this.turns.keys()]) this.endTurn(id);
    this.sub.dispose();
  }
}
