// Command registrations for diff review. Arguments come from the editor title (a URI), the tree
// (a node), the chat (plain JSON: {key}, {sessionId, turnId}, {sessionId, requestId}, or an ACP diff)
// and the palette (nothing: the active editor or a quick pick decides).
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChangeDecisions, HunkRef } from '../changeDecisions';
import type { TurnRef } from '../changeStore';
import type { ChangeTracker } from '../changeTracker';
import type { AcpDiff, DiffOpener } from './diffOpener';
import type { PendingDiffReview, PendingTarget } from './pendingReview';

export const COMMANDS = {
  accept: 'switchboard.diff.accept',
  reject: 'switchboard.diff.reject',
  openDiff: 'switchboard.openDiff',
  keepAll: 'switchboard.acceptAllChanges',
  undoAll: 'switchboard.rejectAllChanges',
  openFileDiff: 'switchboard.changes.openDiff',
  keepFile: 'switchboard.changes.keepFile',
  undoFile: 'switchboard.changes.undoFile',
  keepHunk: 'switchboard.changes.keepHunk',
  undoHunk: 'switchboard.changes.undoHunk',
  undoDecision: 'switchboard.changes.undoDecision',
} as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

export function asAcpDiff(v: unknown): AcpDiff | undefined {
  if (!isRecord(v) || typeof v.path !== 'string' || typeof v.newText !== 'string') return undefined;
  if (v.oldText !== null && v.oldText !== undefined && typeof v.oldText !== 'string') return undefined;
  return { path: v.path, oldText: typeof v.oldText === 'string' ? v.oldText : null, newText: v.newText };
}

function asTurn(v: unknown): TurnRef | undefined {
  if (isRecord(v) && v.type === 'turn' && isRecord(v.turn)) return asTurn(v.turn);
  if (isRecord(v) && typeof v.sessionId === 'string' && typeof v.turnId === 'string') return { sessionId: v.sessionId, turnId: v.turnId };
  return undefined;
}

function asHunkRef(v: unknown): HunkRef | undefined {
  if (!isRecord(v) || typeof v.key !== 'string') return undefined;
  const n = (x: unknown) => typeof x === 'number';
  return n(v.oldOffset) && n(v.newOffset) && n(v.oldLength) && n(v.newLength) ? (v as unknown as HunkRef) : undefined;
}

function asPendingTarget(v: unknown): PendingTarget {
  if (v instanceof vscode.Uri) return v;
  if (isRecord(v) && typeof v.sessionId === 'string' && (typeof v.requestId === 'string' || typeof v.requestId === 'number')) {
    return { sessionId: v.sessionId, requestId: v.requestId };
  }
  return undefined;
}

export function registerDiffCommands(deps: {
  tracker: ChangeTracker;
  decisions: ChangeDecisions;
  opener: DiffOpener;
  pending: PendingDiffReview;
}): vscode.Disposable[] {
  const { tracker, decisions, opener, pending } = deps;

  /** A changed-file key from a tree node, {key}, a file URI or the active editor; else ask. */
  const fileKey = async (arg: unknown): Promise<string | undefined> => {
    if (isRecord(arg) && arg.type === 'file' && isRecord(arg.summary)) return String((arg as unknown as { summary: { key: string } }).summary.key);
    if (isRecord(arg) && typeof arg.key === 'string') return arg.key;
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const entries = uri ? tracker.entriesFor(uri.toString()) : [];
    if (entries.length > 0) return entries[entries.length - 1].key;
    const items = tracker.summaries().map((s) => ({ label: path.basename(s.path), description: s.path, key: s.key }));
    if (items.length === 0) return undefined;
    if (items.length === 1) return items[0].key;
    return (await vscode.window.showQuickPick(items, { placeHolder: 'Which changed file?' }))?.key;
  };

  const reg = vscode.commands.registerCommand;
  return [
    reg(COMMANDS.accept, (arg?: unknown) => pending.accept(asPendingTarget(arg))),
    reg(COMMANDS.reject, (arg?: unknown) => pending.reject(asPendingTarget(arg))),
    reg(COMMANDS.openDiff, async (arg?: unknown) => {
      const diff = asAcpDiff(arg);
      if (diff) return opener.openAcpDiff(diff, isRecord(arg) && typeof arg.title === 'string' ? arg.title : undefined);
      const target = asPendingTarget(arg);
      if (target && !(target instanceof vscode.Uri)) {
        const req = pending.list().find((r) => r.sessionId === target.sessionId && r.requestId === target.requestId);
        if (req) return pending.show(req);
      }
      const key = await fileKey(arg);
      return key ? opener.openEntryDiff(key) : false;
    }),
    reg(COMMANDS.openFileDiff, async (arg?: unknown) => {
      const key = await fileKey(arg);
      return key ? opener.openEntryDiff(key) : false;
    }),
    reg(COMMANDS.keepFile, async (arg?: unknown) => {
      const key = await fileKey(arg);
      return key ? decisions.keepFile(key) : false;
    }),
    reg(COMMANDS.undoFile, async (arg?: unknown) => {
      const key = await fileKey(arg);
      return key ? decisions.undoFile(key) : false;
    }),
    reg(COMMANDS.keepAll, (arg?: unknown) => decisions.keepTurn(asTurn(arg)) > 0),
    reg(COMMANDS.undoAll, (arg?: unknown) => decisions.undoTurn(asTurn(arg))),
    reg(COMMANDS.keepHunk, (arg?: unknown) => {
      const ref = asHunkRef(arg);
      return ref ? decisions.keepHunk(ref) : false;
    }),
    reg(COMMANDS.undoHunk, (arg?: unknown) => {
      const ref = asHunkRef(arg);
      return ref ? decisions.undoHunk(ref) : false;
    }),
    reg(COMMANDS.undoDecision, () => decisions.undoLastDecision()),
  ];
}

