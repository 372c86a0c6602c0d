// The host's part of the webview's state (agents, sessions and their transcripts, terminals, history) and
// the reducer that applies the host's messages to it. A transcript's ops must come in seq order per session;
// an op that does not apply or a missed seq throws, and the store then asks the host for a snapshot.
import type { AgentView, HistoryItem, SessionView, StartingSession, TerminalSnapshot } from '../../src/shared/chatState';
import type { HostToWebviewMessage } from '../../src/shared/messages';
import { MAX_TOOL_OUTPUT, type Transcript } from '../../src/shared/transcript';
import { applyTranscriptOps, type TranscriptOp } from '../../src/shared/transcriptOps';
import { streamKey, textStreams } from './textStreams';

export interface SessionState {
  view: SessionView;
  transcript: Transcript;
}

export interface ChatState {
  initialized: boolean;
  agents: AgentView[];
  defaultAgentId?: string;
  sessions: Map<string, SessionState>;
  /** Tab order. */
  order: string[];
  activeSessionId?: string;
  /**
   * The new session the user asked for that has not opened yet (it may wait for sign-in): the composer
   * sends to it, the picker and the banners show its agent. A copy of the host's (src/chat/sessionRequests.ts):
   * set when this webview asks, cleared when the host says that request settled or the user picks a tab.
   */
  starting?: StartingSession;
  history: HistoryItem[];
  historyLoading: boolean;
  terminals: Map<string, TerminalSnapshot>;
  toast?: string;
}

/** The host messages that change ChatState's sessions, agents, terminals or history. */
export type HostStateMessage = Extract<
  HostToWebviewMessage,
  { type: 'init' | 'agents' | 'session' | 'sessionRemoved' | 'activeSession' | 'transcriptReset' | 'transcriptOps' | 'terminalOutput' | 'history' }
>;

export function emptyChatState(): ChatState {
  return { initialized: false, agents: [], sessions: new Map(), order: [], history: [], historyLoading: false, terminals: new Map() };
}

export class HostStateReducer {
  /** Per session, the seq of the last ops message applied (0: its snapshot). */
  private readonly seqs = new Map<string, number>();

  /** Applies `m` to `s` (its maps are replaced, not mutated); returns the state to keep (a new one on init). */
  apply(s: ChatState, m: HostStateMessage): ChatState {
    switch (m.type) {
      case 'init':
        return this.init(m);
      case 'agents':
        s.agents = m.agents;
        s.defaultAgentId = m.defaultAgentId;
        return s;
      case 'session': {
        const cur = s.sessions.get(m.session.sessionId);
        setSession(s, m.session.sessionId, {
          view: m.session,
          transcript: cur?.transcript ?? { sessionId: m.session.sessionId, items: [], commands: [], configOptions: [] },
        });
        return s;
      }
      case 'sessionRemoved':
        this.seqs.delete(m.sessionId);
        s.sessions = new Map(s.sessions);
        s.sessions.delete(m.sessionId);
        s.order = s.order.filter((x) => x !== m.sessionId);
        if (s.activeSessionId === m.sessionId) s.activeSessionId = s.order[s.order.length - 1];
        return s;
      case 'activeSession':
        s.activeSessionId = m.sessionId;
        return s;
      case 'transcriptReset': {
        const cur = s.sessions.get(m.sessionId);
        this.seqs.set(m.sessionId, 0);
        if (cur) setSession(s, m.sessionId, { view: cur.view, transcript: m.transcript });
        return s;
      }
      case 'transcriptOps': {
        const cur = s.sessions.get(m.sessionId);
        if (!cur) throw new Error(`ops for unknown session ${m.sessionId}`);
        const expected = (this.seqs.get(m.sessionId) ?? -1) + 1;
        if (m.seq !== expected) throw new Error(`ops ${m.seq} for ${m.sessionId}, expected ${expected}`);
        this.seqs.set(m.sessionId, m.seq);
        // Streamed text, a subagent's (inside `nest` ops, with ids unique in the chat) as the session's own.
        const stream = (ops: readonly TranscriptOp[]): void => {
          for (const op of ops) {
            if (op.op === 'appendText') textStreams.append(streamKey(m.sessionId, op.id, op.contentIndex), op.text);
            else if (op.op === 'nest') stream(op.ops);
          }
        };
        stream(m.ops);
        setSession(s, m.sessionId, { view: cur.view, transcript: applyTranscriptOps(cur.transcript, m.ops) });
        return s;
      }
      case 'terminalOutput':
        s.terminals = new Map(s.terminals);
        s.terminals.set(m.terminalId, withOutput(s.terminals.get(m.terminalId), m));
        return s;
      case 'history':
        s.history = m.items;
        s.historyLoading = m.loading ?? false;
        return s;
    }
  }

  private init(m: Extract<HostStateMessage, { type: 'init' }>): ChatState {
    textStreams.reset();
    this.seqs.clear();
    const sessions = new Map<string, SessionState>();
    for (const snap of m.snapshot.sessions) {
      this.seqs.set(snap.view.sessionId, 0);
      sessions.set(snap.view.sessionId, { view: snap.view, transcript: snap.transcript });
    }
    return {
      initialized: true,
      agents: m.snapshot.agents,
      defaultAgentId: m.snapshot.defaultAgentId,
      sessions,
      order: m.snapshot.sessions.map((x) => x.view.sessionId),
      activeSessionId: m.snapshot.activeSessionId,
      starting: m.snapshot.starting,
      history: m.snapshot.history,
      historyLoading: m.snapshot.historyLoading ?? false,
      terminals: new Map(m.snapshot.terminals.map((t) => [t.terminalId, t])),
    };
  }
}

function setSession(s: ChatState, id: string, st: SessionState): void {
  s.sessions = new Map(s.sessions);
  if (!s.sessions.has(id)) s.order = [...s.order, id];
  s.sessions.set(id, st);
}

/** A terminal's output with `m` appended (or, on reset, replaced), keeping the last MAX_TOOL_OUTPUT characters. */
function withOutput(prev: TerminalSnapshot | undefined, m: Extract<HostStateMessage, { type: 'terminalOutput' }>): TerminalSnapshot {
  let output = (m.reset || !prev ? '' : prev.output) + m.data;
  let truncated = prev?.truncated ?? false;
  if (output.length > MAX_TOOL_OUTPUT) {
    output = output.slice(-MAX_TOOL_OUTPUT);
    truncated = true;
  }
  return { terminalId: m.terminalId, output, truncated, exitStatus: m.exitStatus ?? prev?.exitStatus, open: m.open ?? prev?.open };
}
