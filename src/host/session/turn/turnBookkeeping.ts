// What a session records around its turns: the checkpoint a turn starts from, the files its tool calls name
// while it runs, and after the turn's end (which the user already sees) its changed files and the checkpoint's end. The next turn's baseline and
// a restore wait for that (`settled`); the Session owns the turn itself.
import { errorMessage, type SessionUpdate } from '../../../acp';
import type { TranscriptItem } from '../../../shared/transcript';
import type { TranscriptOp } from '../../../shared/transcriptOps';
import type { Session } from '../session';
import type { SessionHost } from '../sessionHost';
import type { ReviewTurn } from './turnFiles';

type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

export class TurnBookkeeping {
  /** The last turn's bookkeeping after its end: the next baseline and a restore wait for it. */
  private settling: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: Pick<SessionHost, 'turnFiles' | 'checkpoints' | 'log'>,
    private readonly session: Session,
  ) {}

  /** The folders' baseline of a turn, once the last turn's end is recorded. */
  async begin(turn: ReviewTurn): Promise<void> {
    await this.settling;
    await this.host.checkpoints.begin(this.session, turn);
  }

  /** A tool call's update and the ops it made: the files it names are the turn's to watch (a child's, in its nest, too). */
  noticeToolCall(update: SessionUpdate, ops: readonly TranscriptOp[]): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    let op = ops[0];
    while (op?.op === 'nest') op = op.ops[0];
    if (op === undefined || (op.op !== 'append' && op.op !== 'replace') || op.item.kind !== 'tool_call') return;
    // Output chunks (_meta only) name no new file: no file reads per chunk.
    if (update.locations || update.content || update.status) void this.host.turnFiles.noticeToolCall(this.session.turnRef, op.item);
    if (update.locations?.length) this.host.turnFiles.follow(op.item);
  }

  /** The turn ended: its changed files (its tool calls from `firstItem` on) and its checkpoint's end follow. */
  end(turn: ReviewTurn, firstItem: number): void {
    this.settling = this.settle(turn, firstItem);
  }

  /** Resolves when the last turn's changed files and checkpoint are recorded (at once when none is pending). */
  settled(): Promise<void> {
    return this.settling;
  }

  private async settle(turn: ReviewTurn, firstItem: number): Promise<void> {
    try {
      await this.host.turnFiles.end(turn, this.toolCallsFrom(firstItem));
      await this.host.checkpoints.end(this.session, turn);
    } catch (error) {
      this.host.log.warn(`The end of a turn of ${this.session.key} was not fully recorded: ${errorMessage(error)}`);
    }
  }

  private toolCallsFrom(firstItem: number): ToolCallItem[] {
    return this.session.transcript.items.slice(firstItem).filter((i): i is ToolCallItem => i.kind === 'tool_call');
  }
}
