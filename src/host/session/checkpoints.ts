// Checkpoints: each user message keeps the snapshots its turn started from (and the ones it ended with),
// saved beside the session's transcript, so "Restore checkpoint" on a message can put back every file the
// agent created, changed or deleted after it, across turns, whoever wrote the file, even after a reload.
// Files the user changed between turns are listed and left alone unless the user includes them.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import type { CheckpointAction, CheckpointFileView, CheckpointView } from '../../shared/checkpoints';
import type { Transcript } from '../../shared/transcript';
import type { DiffReview, FolderSnapshot } from '../diff';
import { blockedReason, openCheckpointDiff, writeTargets, type FileTarget } from '../diff/checkpointRestore';
import { SnapshotGoneError, type CheckpointFilePlan, type CheckpointTurn } from '../diff/checkpointTrees';
import type { Session } from './session';
import type { TranscriptStore } from './transcriptStore';
import type { TurnFiles, TurnRef } from './turnFiles';

/** One user message's turn: its snapshots, or why it has none. */
interface LedgerEntry {
  itemId: string;
  begin?: FolderSnapshot[];
  end?: FolderSnapshot[];
  problem?: string;
}

export interface CheckpointsOptions {
  diffReview: DiffReview;
  store: TranscriptStore;
  turnFiles: TurnFiles;
  log: vscode.LogOutputChannel;
}

const RESTORE_LABEL = 'Restore checkpoint';

export class Checkpoints {
  private readonly ledgers = new Map<string, Promise<LedgerEntry[]>>();
  /** A restore running per session: the next turn's baseline waits for it. */
  private readonly restoring = new Map<string, Promise<unknown>>();
  /** Per session and message, what the last restore replaced (its "Undo restore"). */
  private readonly undos = new Map<string, FileTarget[]>();

  constructor(private readonly o: CheckpointsOptions) {}

  /** The turn's baseline (after any restore running), kept as the checkpoint of the message it sends. */
  async begin(session: Session, turn: TurnRef): Promise<void> {
    await this.restoring.get(session.key);
    const snapshots = await this.o.turnFiles.begin(turn);
    const itemId = lastUserMessage(session.transcript);
    if (!itemId) return;
    try {
      if (snapshots) await this.o.diffReview.checkpoints?.keep(snapshots);
      const ledger = (await this.ledger(session.key)).filter((e) => e.itemId !== itemId);
      ledger.push(snapshots ? { itemId, begin: snapshots } : { itemId, problem: this.o.diffReview.checkpoints?.lastProblem ?? 'Switchboard keeps no snapshots here' });
      await this.save(session.key, ledger);
    } catch (e) {
      this.o.log.warn(`checkpoints: could not record the checkpoint of ${session.key}: ${errorMessage(e)}`);
    }
  }

  /** The turn ended: the folders now, so that changes after this are known to be the user's. */
  async end(session: Session, turn: TurnRef): Promise<void> {
    try {
      const ledger = await this.ledger(session.key);
      const last = ledger.at(-1);
      if (!last?.begin || last.end || !this.o.diffReview.checkpoints) return;
      const { snapshots } = await this.o.diffReview.checkpoints.take(turn.folders);
      if (!snapshots) return;
      last.end = snapshots;
      await this.save(session.key, ledger);
    } catch (e) {
      this.o.log.warn(`checkpoints: could not record the end of a turn of ${session.key}: ${errorMessage(e)}`);
    }
  }

  /** The session closed: its checkpoints stay in the store only (reopening it reads them again). */
  forget(key: string): void {
    this.ledgers.delete(key);
    for (const k of [...this.undos.keys()]) if (k.startsWith(`${key}\n`)) this.undos.delete(k);
  }

  /** What the chat asked of the checkpoint of a user message; the answer is what it shows. */
  async act(session: Session, itemId: string, action: CheckpointAction): Promise<CheckpointView> {
    try {
      if (action.kind === 'undo') return await this.undo(session, itemId);
      if (session.turn !== 'idle') return { phase: 'error', message: 'The agent is working on a message: restore once its turn has ended, or Stop it first.' };
      if (this.restoring.has(session.key)) return { phase: 'error', message: 'A restore is already running in this session.' };
      const plan = await this.plan(session.key, itemId);
      if (action.kind === 'openDiff') {
        const file = plan.find((f) => f.path === action.path);
        if (!file) return { phase: 'error', message: `${action.path} no longer differs from the checkpoint.` };
        await openCheckpointDiff(this.o.diffReview.provider, file);
        return await this.preview(plan);
      }
      if (action.kind === 'preview') return await this.preview(plan);
      const run = this.restore(session, itemId, plan, new Set(action.include));
      this.restoring.set(session.key, run);
      try {
        return await run;
      } finally {
        this.restoring.delete(session.key);
      }
    } catch (e) {
      this.o.log.warn(`checkpoints: ${action.kind} of ${itemId} in ${session.key}: ${errorMessage(e)}`);
      return { phase: 'error', message: errorMessage(e) };
    }
  }

  private async preview(plan: readonly CheckpointFilePlan[]): Promise<CheckpointView> {
    const files: CheckpointFileView[] = [];
    for (const f of plan) {
      const blocked = await blockedReason(f);
      files.push({ path: f.path, action: actionOf(f), userEdited: f.userEdited, ...(blocked ? { blocked } : {}) });
    }
    return { phase: 'preview', files };
  }

  private async restore(session: Session, itemId: string, plan: readonly CheckpointFilePlan[], include: ReadonlySet<string>): Promise<CheckpointView> {
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
    if (outcome.previous.length > 0) this.undos.set(undoKey(session.key, itemId), outcome.previous);
    this.o.log.info(`checkpoints: restored ${outcome.restored.length} file(s) of ${session.key} to before ${itemId}; ${failed.length} failed, ${skipped.length} left alone`);
    session.note(`Files restored to before your message: ${outcome.restored.length} restored${failed.length ? `, ${failed.length} could not be` : ''}${skipped.length ? `, ${skipped.length} of yours left alone` : ''}`, notConversation(session));
    return { phase: 'restored', restored: outcome.restored, failed, skipped, undoable: outcome.previous.length > 0 };
  }

  private async undo(session: Session, itemId: string): Promise<CheckpointView> {
    const previous = this.undos.get(undoKey(session.key, itemId));
    if (!previous) return { phase: 'error', message: 'There is no restore of this checkpoint to undo in this window.' };
    const outcome = await writeTargets(previous, `Undo ${RESTORE_LABEL}`);
    this.undos.delete(undoKey(session.key, itemId));
    session.note(`Restore undone: ${outcome.restored.length} file(s) as they were before it`);
    return { phase: 'undone', files: outcome.restored, failed: outcome.failed };
  }

  /** Every file that differs from the message's checkpoint now, or why that cannot be known. */
  private async plan(key: string, itemId: string): Promise<CheckpointFilePlan[]> {
    const trees = this.o.diffReview.checkpoints;
    if (!trees) throw new Error('Checkpoints are not kept here (Switchboard has no storage folder).');
    const ledger = await this.ledger(key);
    const at = ledger.findIndex((e) => e.itemId === itemId);
    const entry = ledger[at];
    if (!entry) throw new Error('This message has no checkpoint: it was sent before Switchboard kept checkpoints, or its record was lost.');
    if (!entry.begin) throw new Error(`No checkpoint was taken for this message: ${entry.problem ?? 'unknown reason'}. Its turn's changed files can still be undone from the changed files list.`);
    const turns: CheckpointTurn[] = ledger.slice(at).map((e) => ({ begin: e.begin ?? [], ...(e.end ? { end: e.end } : {}) }));
    try {
      return await trees.plan(turns);
    } catch (e) {
      if (e instanceof SnapshotGoneError) throw new Error(`This checkpoint can no longer be restored: ${e.message}. Nothing was changed.`, { cause: e });
      throw e;
    }
  }

  private ledger(key: string): Promise<LedgerEntry[]> {
    let ledger = this.ledgers.get(key);
    if (!ledger) {
      ledger = this.o.store.loadCheckpoints(key).then(parseLedger);
      this.ledgers.set(key, ledger);
    }
    return ledger;
  }

  private async save(key: string, ledger: LedgerEntry[]): Promise<void> {
    this.ledgers.set(key, Promise.resolve(ledger));
    await this.o.store.saveCheckpoints(key, ledger);
  }
}

function actionOf(f: CheckpointFilePlan): CheckpointFileView['action'] {
  if (f.target === null) return 'delete';
  return f.status === 'D' ? 'recreate' : 'revert';
}

function undoKey(key: string, itemId: string): string {
  return `${key}\n${itemId}`;
}

function lastUserMessage(transcript: Transcript): string | undefined {
  for (let i = transcript.items.length - 1; i >= 0; i--) {
    const item = transcript.items[i];
    if (item.kind === 'user_message') return item.id;
  }
  return undefined;
}

/** What the transcript says after a restore: the files went back, the conversation did not. */
function notConversation(session: Session): string {
  const way = session.capabilities.fork ? 'Fork session starts a new one' : 'A new session starts afresh';
  return `The conversation is not rewound (ACP has no way to cut a session): ${session.agentId} still remembers the later messages. ${way} if you want to go on without them.`;
}

/** The stored ledger, keeping only well-formed entries (a damaged file loses its checkpoints, nothing else). */
function parseLedger(value: unknown): LedgerEntry[] {
  if (!Array.isArray(value)) return [];
  const snaps = (v: unknown): FolderSnapshot[] | undefined =>
    Array.isArray(v) && v.every((s) => typeof s === 'object' && s !== null && typeof (s as FolderSnapshot).folder === 'string' && typeof (s as FolderSnapshot).tree === 'string')
      ? (v as FolderSnapshot[]).map((s) => ({ folder: s.folder, tree: s.tree }))
      : undefined;
  return value.flatMap((e: unknown): LedgerEntry[] => {
    if (typeof e !== 'object' || e === null) return [];
    const r = e as Record<string, unknown>;
    if (typeof r.itemId !== 'string') return [];
    const begin = snaps(r.begin);
    const end = snaps(r.end);
    return [{ itemId: r.itemId, ...(begin ? { begin } : {}), ...(end ? { end } : {}), ...(typeof r.problem === 'string' ? { problem: r.problem } : {}) }];
  });
}
