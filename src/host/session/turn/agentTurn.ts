// A turn the agent started itself (it answered a steer `startedNewTurn`): no prompt of ours is in flight, so no
// prompt response ends it. It ends at the agent's end marker — Claude's result is a `usage_update` with the
// turn's cost; ACP v2's `state_update` says `idle` — when the user stops it, or, as the fallback for an agent
// that marks nothing, when the agent has been silent for a while with none of the turn's tool calls running.
import type { AcpClientConnection, SessionUpdate } from '../../../acp';
import type { StopReason } from '../../../shared/transcript';

/** Silence after which an agent's own turn counts as ended (no tool call of it running). */
export const AGENT_TURN_QUIET_MS = 30_000;
/** The same while one of its tool calls still runs (a long command, a permission the user has not answered). */
export const AGENT_TURN_TOOL_QUIET_MS = 300_000;

export interface AgentTurnEnd {
  readonly stopReason: StopReason;
  /** Why it counts as ended, for the log. */
  readonly why: string;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/** Follows one agent-started turn from the updates the session receives; `ended` settles once. */
export class AgentTurnWatch {
  readonly ended: Promise<AgentTurnEnd>;
  private finish!: (end: AgentTurnEnd) => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The turn's tool calls still running, by id. */
  private readonly running = new Set<string>();
  private done = false;

  /**
   * `signal`: the user stopped the turn (Stop, closing the session, the agent gone); the agent is then asked
   * to stop it (`session/cancel` on `sessionId`) at once, as a prompt's Stop does.
   */
  constructor(
    signal: AbortSignal,
    connection: Pick<AcpClientConnection, 'cancel'>,
    sessionId: string,
    private readonly quietMs = AGENT_TURN_QUIET_MS,
    private readonly toolQuietMs = AGENT_TURN_TOOL_QUIET_MS,
  ) {
    this.ended = new Promise((resolve) => (this.finish = resolve));
    const stop = () => {
      if (this.done) return;
      this.end({ stopReason: 'cancelled', why: 'stopped' });
      // An agent already gone has no turn left to stop.
      connection.cancel(sessionId).catch(() => undefined);
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    if (!this.done) this.arm();
  }

  /** An update of the session itself. */
  saw(update: SessionUpdate): void {
    if (this.done) return;
    if (update.sessionUpdate === 'usage_update' && update.cost) return this.end({ stopReason: 'end_turn', why: 'its result (usage with the cost)' });
    const idle = update.sessionUpdate === '$unsupported' && update.updateType === 'state_update' ? idleStopReason(update.raw) : undefined;
    if (idle !== undefined) return this.end({ stopReason: idle, why: 'its idle state' });
    if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
      const status = update.status ?? (update.sessionUpdate === 'tool_call' ? 'pending' : undefined);
      if (status !== undefined && FINISHED.has(status)) this.running.delete(update.toolCallId);
      else if (status !== undefined) this.running.add(update.toolCallId);
    }
    this.arm();
  }

  /** Something else of the turn happened (an update of one of its subagents): it is not silent. */
  heard(): void {
    if (!this.done) this.arm();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.done = true;
  }

  private arm(): void {
    clearTimeout(this.timer);
    const ms = this.running.size > 0 ? this.toolQuietMs : this.quietMs;
    this.timer = setTimeout(() => this.end({ stopReason: 'end_turn', why: `nothing from the agent for ${Math.round(ms / 1000)} s` }), ms);
  }

  private end(end: AgentTurnEnd): void {
    if (this.done) return;
    this.dispose();
    this.finish(end);
  }
}

/** An idle `state_update`'s stop reason (`end_turn` when it names none); undefined for any other state. */
function idleStopReason(raw: unknown): StopReason | undefined {
  if (typeof raw !== 'object' || raw === null || !('state' in raw) || raw.state !== 'idle') return undefined;
  const reason = 'stopReason' in raw ? raw.stopReason : undefined;
  return typeof reason === 'string' && reason ? reason : 'end_turn';
}
