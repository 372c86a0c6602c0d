// The checkpoints of every session (loaded with the first turn, not at startup): per user message the
// snapshots its turn began and ended with, saved beside the transcript (so they survive a reload), and the
// restores running and what each replaced.
import { errorMessage } from '../../../acp';
import type { CheckpointAction, CheckpointView } from '../../../shared/checkpoints';
import type { Transcript } from '../../../shared/transcript';
import type { FolderSnapshot } from '../../diff';
import type { CheckpointsOptions } from './checkpoints';
import type { FileTarget } from '../../diff/baseline/checkpointRestore';
import type { Session } from '../session';
import type { ReviewTurn } from '../turn/turnFiles';

/** One user message's turn: its snapshots, or why it has none. */
export interface LedgerEntry {
  itemId: string;
  begin?: FolderSnapshot[];
  end?: FolderSnapshot[];
  problem?: string;
}

export class CheckpointLedgers {
  private readonly ledgers = new Map<string, Promise<LedgerEntry[]>>();
  /** A restore running per session: the next turn's baseline waits for it. */
  private readonly restoring = new Map<string, Promise<unknown>>();
  /** Per session, its last turn's checkpoint being kept and saved. */
  private readonly recording = new Map<string, Promise<void>>();
  /** Per session and message, what the last restore replaced (its "Undo restore"). */
  private readonly undos = new Map<string, FileTarget[]>();

  constructor(private readonly deps: CheckpointsOptions) {}

  /**
   * The turn's baseline (after any restore running), kept as the checkpoint of the message it sends. Resolves
   * once the folders are snapshotted: only that must precede the prompt. Keeping the snapshot and saving the
   * entry follow while the agent works; the turn's end, an action and the next turn's entry wait for them.
   */
  async begin(session: Session, turn: ReviewTurn): Promise<void> {
    await this.restoring.get(session.key)?.catch(() => undefined);
    const snapshots = await this.deps.turnFiles.begin(turn);
    const itemId = lastUserMessage(session.transcript);
    if (!itemId) return;
    const key = session.key;
    const recorded = this.recorded(key).then(() => this.record(key, itemId, snapshots));
    this.recording.set(key, recorded);
    void recorded.then(() => {
      if (this.recording.get(key) === recorded) this.recording.delete(key);
    });
  }

  /** The turn ended: the folders now, so that changes after this are known to be the user's. */
  async end(session: Session, turn: ReviewTurn): Promise<void> {
    await this.recorded(session.key);
    try {
      const ledger = await this.ledger(session.key);
      const last = ledger.at(-1);
      const trees = await this.deps.diffReview.checkpoints();
      if (!last?.begin || last.end || !trees) return;
      const { snapshots } = await trees.take(turn.folders);
      if (!snapshots) return;
      last.end = snapshots;
      await this.save(session.key, ledger);
    } catch (e) {
      this.deps.log.warn(`checkpoints: could not record the end of a turn of ${session.key}: ${errorMessage(e)}`);
    }
  }

  /** The session closed: its checkpoints stay in the store only (reopening it reads them again). */
  forget(key: string): void {
    // After a checkpoint still being saved, which holds the ledger until then.
    void this.recorded(key).then(() => {
      this.ledgers.delete(key);
      for (const k of [...this.undos.keys()]) if (k.startsWith(`${key}\n`)) this.undos.delete(k);
    });
  }

  /** What the chat asked of the checkpoint of a user message; the answer is what it shows. */
  async act(session: Session, itemId: string, action: CheckpointAction): Promise<CheckpointView> {
    // A turn that just ended is idle; its end snapshot may still be on its way.
    await session.settled();
    await this.recorded(session.key);
    const { checkpointAction } = await import('./checkpointActions');
    return checkpointAction({ ...this.deps, ledger: await this.ledger(session.key), restoring: this.restoring, undos: this.undos }, session, itemId, action);
  }

  /** Resolves when the session's last begun checkpoint is kept and saved (never rejects). */
  private recorded(key: string): Promise<void> {
    return this.recording.get(key) ?? Promise.resolve();
  }

  /** Keeps a turn's snapshots and saves them as the checkpoint of its message (a failure is logged). */
  private async record(key: string, itemId: string, snapshots: FolderSnapshot[] | undefined): Promise<void> {
    try {
      if (snapshots) await (await this.deps.diffReview.checkpoints())?.keep(snapshots);
      const ledger = (await this.ledger(key)).filter((e) => e.itemId !== itemId);
      ledger.push(snapshots ? { itemId, begin: snapshots } : { itemId, problem: (await this.deps.diffReview.checkpoints())?.lastProblem ?? 'Switchboard keeps no snapshots here' });
      await this.save(key, ledger);
    } catch (e) {
      this.deps.log.warn(`checkpoints: could not record the checkpoint of ${key}: ${errorMessage(e)}`);
    }
  }

  private ledger(key: string): Promise<LedgerEntry[]> {
    let ledger = this.ledgers.get(key);
    if (!ledger) {
      ledger = this.deps.store.loadCheckpoints(key).then(parseLedger);
      this.ledgers.set(key, ledger);
    }
    return ledger;
  }

  private async save(key: string, ledger: LedgerEntry[]): Promise<void> {
    this.ledgers.set(key, Promise.resolve(ledger));
    await this.deps.store.saveCheckpoints(key, ledger);
  }
}

function lastUserMessage(transcript: Transcript): string | undefined {
  for (let i = transcript.items.length - 1; i >= 0; i--) {
    const item = transcript.items[i];
    if (item.kind === 'user_message') return item.id;
  }
  return undefined;
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
