// What "Restore checkpoint" does when the user asks (loaded then, not at startup): the preview of the files
// a restore changes back, a file's diff, the restore itself, and its undo. The checkpoints themselves
// (the snapshots per user message) are recorded by checkpoints.ts.
import type * as vscode from 'vscode';
import { errorMessage } from '../../../acp';
import type { CheckpointAction, CheckpointFileView, CheckpointView } from '../../../shared/checkpoints';
import type { DiffReview } from '../../diff';
import { blockedReason, openCheckpointDiff, writeTargets, type FileTarget } from '../../diff/baseline/checkpointRestore';
import { SnapshotGoneError, type CheckpointFilePlan, type CheckpointTurn } from '../../diff/baseline/checkpointTrees';
import type { LedgerEntry } from './checkpointLedgers';
import type { Session } from '../session';

const RESTORE_LABEL = 'Restore checkpoint';

/** What an action works with: the session's checkpoints, the restores running and what each replaced. */
export interface ActionContext {
  diffReview: DiffReview;
  log: vscode.LogOutputChannel;
  ledger: readonly LedgerEntry[];
  /** Per session key, the restore running. */
  restoring: Map<string, Promise<unknown>>;
  /** Per `<session key>\n<message id>`, what the last restore replaced. */
  undos: Map<string, FileTarget[]>;
}

export async function checkpointAction(c: ActionContext, session: Session, itemId: string, action: CheckpointAction): Promise<CheckpointView> {
  try {
    if (action.kind === 'undo') return await undo(c, session, itemId);
    if (session.turn !== 'idle') return { phase: 'error', message: 'The agent is working on a message: restore once its turn has ended, or Stop it first.' };
    if (c.restoring.has(session.key)) return { phase: 'error', message: 'A restore is already running in this session.' };
    const plan = await planOf(c, itemId);
    if (action.kind === 'openDiff') {
      const file = plan.find((f) => f.path === action.path);
      if (!file) return { phase: 'error', message: `${action.path} no longer differs from the checkpoint.` };
      await openCheckpointDiff(c.diffReview.provider, file);
      return await preview(plan);
    }
    if (action.kind === 'preview') return await preview(plan);
    const run = restore(c, session, itemId, plan, new Set(action.include));
    c.restoring.set(session.key, run);
    try {
      return await run;
    } finally {
      c.restoring.delete(session.key);
    }
  } catch (e) {
    c.log.warn(`checkpoints: ${action.kind} of ${itemId} in ${session.key}: ${errorMessage(e)}`);
    return { phase: 'error', message: errorMessage(e) };
  }
}

async function preview(plan: readonly CheckpointFilePlan[]): Promise<CheckpointView> {
  const files: CheckpointFileView[] = [];
  for (const f of plan) {
    const blocked = await blockedReason(f);
    files.push({ path: f.path, action: actionOf(f), userEdited: f.userEdited, ...(blocked ? { blocked } : {}) });
  }
  return { phase: 'preview', files };
}

async function restore(c: ActionContext, session: Session, itemId: string, plan: readonly CheckpointFilePlan[], include: ReadonlySet<string>): Promise<CheckpointView> {
  const skipped: string[] = [];
  const failed: { path: string; reason: string }[] = [];
  const targets: FileTarget[] = [];
  for (const f of plan) {
    if (f.userEdited && !include.has(f.path)) skipped.push(f.path);
    else {
      const blocked = await blockedReason(f);
      if (blocked) failed.push({ path: f.path, reason: blocked });
      else targets.push({ path: f.path, target: f.target });
    }
  }
  const outcome = await writeTargets(targets, RESTORE_LABEL);
  failed.push(...outcome.failed);
  if (outcome.previous.length > 0) c.undos.set(undoKey(session.key, itemId), outcome.previous);
  c.log.info(`checkpoints: restored ${outcome.restored.length} file(s) of ${session.key} to before ${itemId}; ${failed.length} failed, ${skipped.length} left alone`);
  session.note(
    `Files restored to before your message: ${outcome.restored.length} restored${failed.length ? `, ${failed.length} could not be` : ''}${skipped.length ? `, ${skipped.length} of yours left alone` : ''}`,
    notConversation(session),
  );
  return { phase: 'restored', restored: outcome.restored, failed, skipped, undoable: outcome.previous.length > 0 };
}

async function undo(c: ActionContext, session: Session, itemId: string): Promise<CheckpointView> {
  const previous = c.undos.get(undoKey(session.key, itemId));
  if (!previous) return { phase: 'error', message: 'There is no restore of this checkpoint to undo in this window.' };
  const outcome = await writeTargets(previous, `Undo ${RESTORE_LABEL}`);
  c.undos.delete(undoKey(session.key, itemId));
  session.note(`Restore undone: ${outcome.restored.length} file(s) as they were before it`);
  return { phase: 'undone', files: outcome.restored, failed: outcome.failed };
}

/** Every file that differs from the message's checkpoint now, or why that cannot be known. */
async function planOf(c: ActionContext, itemId: string): Promise<CheckpointFilePlan[]> {
  const trees = await c.diffReview.checkpoints();
  if (!trees) throw new Error('Checkpoints are not kept here (Switchboard has no storage folder).');
  const at = c.ledger.findIndex((e) => e.itemId === itemId);
  const entry = c.ledger[at];
  if (!entry) throw new Error('This message has no checkpoint: it was sent before Switchboard kept checkpoints, or its record was lost.');
  if (!entry.begin) throw new Error(`No checkpoint was taken for this message: ${entry.problem ?? 'unknown reason'}. Its turn's changed files can still be undone from the changed files list.`);
  const turns: CheckpointTurn[] = c.ledger.slice(at).map((e) => ({ begin: e.begin ?? [], ...(e.end ? { end: e.end } : {}) }));
  try {
    return await trees.plan(turns);
  } catch (e) {
    if (e instanceof SnapshotGoneError) throw new Error(`This checkpoint can no longer be restored: ${e.message}. Nothing was changed.`, { cause: e });
    throw e;
  }
}

function actionOf(f: CheckpointFilePlan): CheckpointFileView['action'] {
  if (f.target === null) return 'delete';
  return f.status === 'D' ? 'recreate' : 'revert';
}

function undoKey(key: string, itemId: string): string {
  return `${key}\n${itemId}`;
}

/** What the transcript says after a restore: the files went back, the conversation did not. */
function notConversation(session: Session): string {
  const way = session.capabilities.fork ? 'Fork session starts a new one' : 'A new session starts afresh';
  return `The conversation is not rewound (ACP has no way to cut a session): ${session.agentId} still remembers the later messages. ${way} if you want to go on without them.`;
}
