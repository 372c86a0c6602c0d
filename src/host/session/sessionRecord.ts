// One chat session as the host keeps it: the transcript (the source of truth), the turn, and the
// agent session it is bound to. `key` is stable for the tab's life; the agent session id may change
// when the agent restarts and the session is loaded again (or replaced by a new one).
import { TranscriptState } from '../../acp';
import type { SessionCapabilities, SessionError, TurnState } from '../../shared/chatState';
import type { Transcript } from '../../shared/transcript';

export class SessionRecord {
  acpSessionId: string;
  turn: TurnState = 'idle';
  /** Counts prompt turns; the diff review and write history key changes by it. */
  turnNumber = 0;
  abort: AbortController | undefined;
  error: SessionError | undefined;
  loading = false;
  /** The agent process this session lived in is gone: the next prompt binds it again. */
  detached = false;
  /** Updates arriving while this is set are a replay of what the transcript already shows. */
  suppressReplay = false;
  capabilities: SessionCapabilities = { image: false, audio: false, embeddedContext: false };
  readonly state: TranscriptState;

  constructor(
    readonly key: string,
    readonly agentId: string,
    acpSessionId: string,
    readonly cwd: string,
    readonly additionalDirectories: string[],
    transcript?: Transcript,
  ) {
    this.acpSessionId = acpSessionId;
    this.state = new TranscriptState(transcript ?? acpSessionId);
  }

  /**
   * Agent session ids are unique only per agent; the bridges and brokers are shared by all agents,
   * so they see this agent-qualified id instead.
   */
  get scopedId(): string {
    return scopedSessionId(this.agentId, this.acpSessionId);
  }

  get transcript(): Transcript {
    return this.state.transcript;
  }

  get turnId(): string {
    return `${this.key}#${this.turnNumber}`;
  }

  get title(): string {
    if (this.transcript.title) return this.transcript.title;
    const firstUser = this.transcript.items.find((i) => i.kind === 'user_message');
    const text = firstUser && firstUser.kind === 'user_message' ? firstUser.content.find((c) => c.type === 'text') : undefined;
    const words = text && text.type === 'text' ? text.text.trim().replace(/\s+/g, ' ') : '';
    return words ? (words.length > 60 ? `${words.slice(0, 57)}…` : words) : 'New session';
  }
}

export function scopedSessionId(agentId: string, acpSessionId: string): string {
  return JSON.stringify([agentId, acpSessionId]);
}
