// A session's turns from start to end: the user's prompts (the Session runs them between `begin` and `end`) and
// the turns the agent starts itself after a steer it answered `startedNewTurn` (followed here until the agent
// marks their end, Stop, or its silence: agentTurn.ts). The turn's state is written only here and read as
// `Session.turn`; a turn of either kind runs, stops and ends for the user the same way.
import type { AcpClientConnection, SessionUpdate } from '../../../acp';
import type { TurnState } from '../../../shared/chatState';
import { AgentTurnWatch } from './agentTurn';
import type { Session } from '../session';
import type { SessionHost } from '../sessionHost';
import type { TurnBookkeeping } from './turnBookkeeping';
import type { TurnErrors } from './turnErrors';
import type { ReviewTurn } from './turnFiles';

export class TurnCycle {
  private state: TurnState = 'idle';
  /** Counts the turns; the diff review and write history key changes by it. */
  private count = 0;
  private abort: AbortController | undefined;
  /** Set while a turn the agent started itself runs. */
  private agentTurn: AgentTurnWatch | undefined;

  constructor(
    private readonly host: Pick<SessionHost, 'log' | 'turnChanged' | 'cancelRequests'>,
    private readonly session: Session,
    private readonly bookkeeping: TurnBookkeeping,
    private readonly errors: TurnErrors,
  ) {}

  get turn(): TurnState {
    return this.state;
  }

  get number(): number {
    return this.count;
  }

  /** The turn runs from now; Stop works from this first moment (its signal exists before anything is awaited). */
  begin(): AbortSignal {
    this.errors.clear();
    this.state = 'running';
    this.count++;
    this.abort = new AbortController();
    this.session.changed();
    this.host.turnChanged(this.session);
    return this.abort.signal;
  }

  /**
   * However the turn ended, none of its tool calls runs any more, and it is over for the user now: the turn is
   * idle when its end shows. Its bookkeeping follows; whatever depends on it waits (`settled`).
   */
  async end(turn: ReviewTurn | undefined, firstItem: number): Promise<void> {
    this.session.recordTurnStopped();
    this.state = 'idle';
    this.abort = undefined;
    if (turn) this.bookkeeping.end(turn, firstItem);
    this.session.changed();
    this.host.turnChanged(this.session);
    await this.bookkeeping.settled();
  }

  /**
   * A turn the agent started itself, on `connection`: it runs as one of the user's until its end. A turn of ours
   * running already is the agent's too: its end covers both.
   */
  async followAgentTurn(connection: AcpClientConnection): Promise<void> {
    const { session, host } = this;
    if (this.state !== 'idle' || session.detached) return;
    const signal = this.begin();
    const watch = (this.agentTurn = new AgentTurnWatch(signal, connection, session.acpSessionId));
    const turn = session.turnRef;
    const firstItem = session.transcript.items.length;
    host.log.info(`${session.agentId} started a turn of its own in ${session.key}`);
    // The baseline is taken while the turn runs: its end (a Stop) shows at once, whatever the baseline takes.
    const begun = this.bookkeeping.begin(turn);
    begun.catch(() => undefined);
    try {
      const end = await watch.ended;
      host.log.info(`The turn ${session.agentId} started in ${session.key} ended: ${end.why}`);
      session.recordTurnEnd(end.stopReason);
      await begun;
    } catch (error) {
      this.errors.fail(error);
    } finally {
      watch.dispose();
      this.agentTurn = undefined;
      await this.end(turn, firstItem);
    }
  }

  /** Stop: the turn shows cancelling, its pending requests are answered cancelled, then `session/cancel`. */
  cancel(): void {
    if (this.state === 'idle') return;
    this.state = 'cancelling';
    this.session.changed();
    this.host.cancelRequests(this.session.scopedId);
    this.abort?.abort();
  }

  /** The agent process is gone: a turn it crashed in ends, and so does a turn of its own (nothing of it can end it). */
  processEnded(crashed: boolean): void {
    if ((crashed && this.state !== 'idle') || this.agentTurn) this.abort?.abort();
  }

  /** An update of the session itself (what ends an agent's turn). */
  saw(update: SessionUpdate): void {
    this.agentTurn?.saw(update);
  }

  /** An update of one of its subagents: the agent's turn is not silent. */
  heard(): void {
    this.agentTurn?.heard();
  }

  dispose(): void {
    this.agentTurn?.dispose();
  }
}
