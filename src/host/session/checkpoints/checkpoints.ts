// Checkpoints: each user message keeps the snapshots its turn started from (and the ones it ended with),
// so "Restore checkpoint" on a message can put back every file the agent created, changed or deleted after
// it, across turns, whoever wrote the file, even after a reload. Files the user changed between turns are
// listed and left alone unless the user includes them. The work loads with the first turn
// (checkpointLedgers.ts) and the restore when the user asks (checkpointActions.ts).
import type * as vscode from 'vscode';
import type { CheckpointsPort } from '../../../chat/chatBackend';
import type { CheckpointAction, CheckpointView } from '../../../shared/checkpoints';
import type { DiffReview } from '../../diff';
import type { CheckpointLedgers } from './checkpointLedgers';
import type { Session } from '../session';
import type { SessionRegistry } from '../tabs/sessionRegistry';
import type { TranscriptStore } from '../tabs/transcriptStore';
import type { TurnFiles, ReviewTurn } from '../turn/turnFiles';

export interface CheckpointsOptions {
  diffReview: DiffReview;
  store: TranscriptStore;
  turnFiles: TurnFiles;
  log: vscode.LogOutputChannel;
  sessions: SessionRegistry;
}

export class Checkpoints implements CheckpointsPort {
  private ledgers: Promise<CheckpointLedgers> | undefined;

  constructor(private readonly deps: CheckpointsOptions) {}

  /** The turn's baseline (after any restore running), kept as the checkpoint of the message it sends. */
  async begin(session: Session, turn: ReviewTurn): Promise<void> {
    await (await this.load()).begin(session, turn);
  }

  /** The turn ended: the folders now, so that changes after this are known to be the user's. */
  async end(session: Session, turn: ReviewTurn): Promise<void> {
    await (await this.load()).end(session, turn);
  }

  /** The session closed: its checkpoints stay in the store only (reopening it reads them again). */
  forget(key: string): void {
    void this.ledgers?.then((l) => l.forget(key));
  }

  /** What the chat asked of the checkpoint of a user message; the answer is what it shows. */
  async act(tabId: string, itemId: string, action: CheckpointAction): Promise<CheckpointView> {
    const session = this.deps.sessions.require(tabId);
    return (await this.load()).act(session, itemId, action);
  }

  private load(): Promise<CheckpointLedgers> {
    this.ledgers ??= import('./checkpointLedgers').then(({ CheckpointLedgers }) => new CheckpointLedgers(this.deps));
    return this.ledgers;
  }
}
