// The webview's state: what the host sent (agents, sessions, transcripts, terminals, history) plus
// visual UI state persisted with setState (uiState.ts). Host messages are applied as they arrive;
// subscribers are notified once per animation frame, or at once when where a message goes changed.
import {
  type AgentView,
  type HistoryItem,
  type MentionCandidate,
  type MentionRef,
  type SessionView,
  type StartingSession,
  type TerminalSnapshot,
} from '../../src/shared/chatState';
import type { CheckpointView } from '../../src/shared/checkpoints';
import { CHAT_PROTOCOL_VERSION, type HostToWebviewMessage, type WebviewToHostMessage } from '../../src/shared/messages';
import { MAX_TOOL_OUTPUT, type Transcript } from '../../src/shared/transcript';
import { applyTranscriptOps, type TranscriptOp } from '../../src/shared/transcriptOps';
import { revealRequest } from './revealRequest';
import { streamKey, textStreams } from './textStreams';
import { type Draft, loadUi, persistedUi, type UiState } from './uiState';
import { getVsCodeApi, type VsCodeApi } from './vscodeApi';

export type { Draft } from './uiState';

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

const MAX_EXPANDED = 500;
/** Key of the draft used when no session exists yet. */
export const NO_SESSION = '__new__';

type Listener = () => void;
/** The composer should show its draft again (text or chips were added) and take the focus. */
type ComposerListener = () => void;

export class ChatStore {
  state: ChatState = {
    initialized: false,
    agents: [],
    sessions: new Map(),
    order: [],
    history: [],
    historyLoading: false,
    terminals: new Map(),
  };
  ui: UiState;
  /** Incremented on every applied change; components use it to re-render. */
  version = 0;
  private listeners = new Set<Listener>();
  private composerListeners = new Set<ComposerListener>();
  private mentionListeners = new Set<(requestId: number, c: MentionCandidate[]) => void>();
  private frame: number | undefined;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly api: VsCodeApi;
  private readonly raf: (cb: () => void) => number;
  /** Per session, the seq of the last ops message applied (0: its snapshot). */
  private readonly seqs = new Map<string, number>();
  private requestSeq = 0;
  /** Why "Open plan" failed, per session and plan, for the file the card showed (the card says it). */
  private readonly planFileErrors = new Map<string, { uri: string; error: string }>();
  /** What each open checkpoint card shows, by session and user message (absent: closed). */
  private readonly checkpoints = new Map<string, CheckpointView>();

  constructor(api: VsCodeApi = getVsCodeApi(), raf?: (cb: () => void) => number) {
    this.api = api;
    this.raf =
      raf ??
      (typeof requestAnimationFrame === 'function'
        ? (cb) => requestAnimationFrame(cb)
        : (cb) => setTimeout(cb, 16) as unknown as number);
    this.ui = loadUi(api.getState());
  }

  // ------------------------------------------------------------------ host link

  post(message: WebviewToHostMessage): void {
    this.api.postMessage(message);
  }

  /** Why opening this plan's file (`uri`) failed last time; undefined when it did not fail. */
  planFileError(sessionId: string, planId: string, uri: string): string | undefined {
    const failed = this.planFileErrors.get(`${sessionId}\n${planId}`);
    return failed?.uri === uri ? failed.error : undefined;
  }

  /** The checkpoint card of a user message, when open. */
  checkpoint(sessionId: string, itemId: string): CheckpointView | undefined {
    return this.checkpoints.get(`${sessionId}\n${itemId}`);
  }

  /** Shows (or, with undefined, closes) the checkpoint card of a user message until the host answers. */
  setCheckpoint(sessionId: string, itemId: string, view: CheckpointView | undefined): void {
    if (view) this.checkpoints.set(`${sessionId}\n${itemId}`, view);
    else this.checkpoints.delete(`${sessionId}\n${itemId}`);
    this.changed();
  }

  /** Tell the host we are ready (answered by `init`). */
  start(): void {
    this.post({ type: 'ready', protocolVersion: CHAT_PROTOCOL_VERSION });
  }

  receive(message: HostToWebviewMessage): void {
    const starting = this.state.starting;
    try {
      this.apply(message);
    } catch (e) {
      // Our copy drifted from the host's: ask for a fresh snapshot.
      this.post({ type: 'resync', reason: e instanceof Error ? e.message : String(e) });
    }
    if (this.state.starting !== starting) this.targetChanged();
    else this.changed();
  }

  private apply(m: HostToWebviewMessage): void {
    const s = this.state;
    switch (m.type) {
      case 'init': {
        textStreams.reset();
        this.seqs.clear();
        for (const snap of m.snapshot.sessions) this.seqs.set(snap.view.sessionId, 0);
        const sessions = new Map<string, SessionState>();
        for (const snap of m.snapshot.sessions) sessions.set(snap.view.sessionId, { view: snap.view, transcript: snap.transcript });
        this.state = {
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
        return;
      }
      case 'batch':
        for (const x of m.messages) this.apply(x);
        return;
      case 'agents':
        s.agents = m.agents;
        s.defaultAgentId = m.defaultAgentId;
        return;
      case 'session': {
        const cur = s.sessions.get(m.session.sessionId);
        this.setSession(m.session.sessionId, {
          view: m.session,
          transcript: cur?.transcript ?? { sessionId: m.session.sessionId, items: [], commands: [], configOptions: [] },
        });
        return;
      }
      case 'sessionRemoved':
        this.seqs.delete(m.sessionId);
        s.sessions = new Map(s.sessions);
        s.sessions.delete(m.sessionId);
        s.order = s.order.filter((x) => x !== m.sessionId);
        if (s.activeSessionId === m.sessionId) s.activeSessionId = s.order[s.order.length - 1];
        return;
      case 'activeSession':
        s.activeSessionId = m.sessionId;
        return;
      case 'newSessionSettled':
        if (s.starting?.requestId !== m.requestId) return;
        s.starting = undefined;
        // What was typed while it started goes with it.
        if (m.sessionId !== undefined && this.ui.drafts[NO_SESSION] && !this.ui.drafts[m.sessionId]) {
          this.ui.drafts[m.sessionId] = this.ui.drafts[NO_SESSION];
          delete this.ui.drafts[NO_SESSION];
          this.persist();
        }
        return;
      case 'transcriptReset': {
        const cur = s.sessions.get(m.sessionId);
        this.seqs.set(m.sessionId, 0);
        if (cur) this.setSession(m.sessionId, { view: cur.view, transcript: m.transcript });
        return;
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
        this.setSession(m.sessionId, { view: cur.view, transcript: applyTranscriptOps(cur.transcript, m.ops) });
        return;
      }
      case 'terminalOutput': {
        const prev = s.terminals.get(m.terminalId);
        let output = (m.reset || !prev ? '' : prev.output) + m.data;
        let truncated = prev?.truncated ?? false;
        if (output.length > MAX_TOOL_OUTPUT) {
          output = output.slice(-MAX_TOOL_OUTPUT);
          truncated = true;
        }
        s.terminals = new Map(s.terminals);
        s.terminals.set(m.terminalId, { terminalId: m.terminalId, output, truncated, exitStatus: m.exitStatus ?? prev?.exitStatus, open: m.open ?? prev?.open });
        return;
      }
      case 'history':
        s.history = m.items;
        s.historyLoading = m.loading ?? false;
        return;
      case 'mentionResults':
        for (const l of this.mentionListeners) l(m.requestId, m.candidates);
        return;
      case 'planFileOpened':
        if (m.error === undefined) this.planFileErrors.delete(`${m.sessionId}\n${m.planId}`);
        else this.planFileErrors.set(`${m.sessionId}\n${m.planId}`, { uri: m.uri, error: m.error });
        return;
      case 'checkpoint':
        this.checkpoints.set(`${m.sessionId}\n${m.itemId}`, m.view);
        return;
      case 'focusComposer':
        this.addToComposer(m.insert, m.mentions, m.notice);
        return;
      case 'revealRequest':
        revealRequest(m.requestId);
        return;
      case 'toast':
        this.showToast(m.message);
        return;
    }
  }

  private setSession(id: string, st: SessionState): void {
    const s = this.state;
    s.sessions = new Map(s.sessions);
    if (!s.sessions.has(id)) s.order = [...s.order, id];
    s.sessions.set(id, st);
  }

  showToast(message: string): void {
    this.state.toast = message;
    if (this.toastTimer) clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.state.toast = undefined;
      this.changed();
    }, 2500);
  }

  // ------------------------------------------------------------------ subscriptions, per-frame render

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Why the last Add to Chat left something out; shown beside the composer until dismissed or sent. */
  composerNotice: string | undefined;

  /** Text or chips from the host go into the draft of the tab shown now, kept here if no composer is mounted yet. */
  private addToComposer(insert: string | undefined, mentions: MentionRef[] | undefined, notice: string | undefined): void {
    const key = (this.startingSession ? undefined : this.active?.view.sessionId) ?? NO_SESSION;
    if (insert || mentions?.length) {
      const d = this.draft(key);
      const text = insert ? (d.text ? `${d.text}${d.text.endsWith(' ') ? '' : ' '}${insert}` : insert) : d.text;
      this.setDraft(key, { ...d, text, mentions: [...d.mentions, ...(mentions ?? [])] });
    }
    this.composerNotice = notice;
    for (const l of this.composerListeners) l();
  }

  onComposerRequest(l: ComposerListener): () => void {
    this.composerListeners.add(l);
    return () => this.composerListeners.delete(l);
  }

  onMentionResults(l: (requestId: number, c: MentionCandidate[]) => void): () => void {
    this.mentionListeners.add(l);
    return () => this.mentionListeners.delete(l);
  }

  /** Mark changed; listeners run once on the next animation frame. */
  changed(): void {
    this.version++;
    if (this.frame !== undefined) return;
    this.frame = this.raf(() => {
      this.frame = undefined;
      this.notify();
    });
  }

  /** A render is scheduled for the next frame. */
  get framePending(): boolean {
    return this.frame !== undefined;
  }

  /**
   * Where the composer sends changed (a new session asked for, opened, a tab chosen): render now, not on the
   * next frame, so a key typed right after goes where the screen says.
   */
  private targetChanged(): void {
    this.changed();
    this.flushNow();
  }

  /** Run pending listeners now. */
  flushNow(): void {
    this.frame = undefined;
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  // ------------------------------------------------------------------ selectors

  get active(): SessionState | undefined {
    const id = this.state.activeSessionId;
    return id ? this.state.sessions.get(id) : undefined;
  }

  agent(id: string | undefined): AgentView | undefined {
    return id ? this.state.agents.find((a) => a.id === id) : undefined;
  }

  /** A new session the user asked for is starting: messages typed meanwhile go to it, not to the tab shown. */
  get startingSession(): StartingSession | undefined {
    return this.state.starting;
  }

  /** The agent the Agent picker shows: a new session's that is starting, else the active session's, else the user's choice, else the default. */
  selectedAgentId(): string | undefined {
    return this.state.starting?.agentId ?? this.active?.view.agentId ?? this.ui.agentId ?? this.state.defaultAgentId ?? this.state.agents[0]?.id;
  }

  // ------------------------------------------------------------------ UI state (persisted)

  draft(key: string): Draft {
    return this.ui.drafts[key] ?? { text: '', mentions: [], images: [] };
  }

  setDraft(key: string, d: Draft): void {
    if (!d.text && !d.mentions.length && !d.images.length) delete this.ui.drafts[key];
    else this.ui.drafts[key] = d;
    this.persist();
  }

  isExpanded(id: string, byDefault: boolean): boolean {
    return this.ui.expanded[id] ?? byDefault;
  }

  setExpanded(id: string, open: boolean): void {
    delete this.ui.expanded[id];
    this.ui.expanded[id] = open;
    const keys = Object.keys(this.ui.expanded);
    if (keys.length > MAX_EXPANDED) for (const k of keys.slice(0, keys.length - MAX_EXPANDED)) delete this.ui.expanded[k];
    this.persist();
  }

  /**
   * The user picked an agent. With a session shown or starting, another agent starts a session with it;
   * the agent of the tab shown, while another one starts, goes back to that tab.
   */
  pickAgent(agentId: string): void {
    const shown = this.selectedAgentId();
    this.ui.agentId = agentId;
    const active = this.active;
    if (agentId !== shown) {
      if (this.state.starting && active?.view.agentId === agentId) this.selectSession(active.view.sessionId);
      else if (active || this.state.starting) this.newSession(agentId);
    }
    this.persist();
    this.changed();
  }

  /** Asks for a new session; until it opens, a message typed goes to it, not to the tab still shown. */
  newSession(agentId?: string): void {
    const requestId = `n${Date.now().toString(36)}-${++this.requestSeq}`;
    this.state.starting = agentId ? { agentId, requestId } : { requestId };
    this.post(agentId ? { type: 'newSession', agentId, requestId } : { type: 'newSession', requestId });
    this.targetChanged();
  }

  /** The user chose a session tab: messages go there, and the picker follows it again. */
  selectSession(sessionId: string): void {
    this.state.starting = undefined;
    this.post({ type: 'selectSession', sessionId });
    this.targetChanged();
  }

  setHistoryOpen(open: boolean): void {
    this.ui.historyOpen = open;
    this.persist();
    this.changed();
  }

  rememberSent(text: string): void {
    if (!text.trim()) return;
    this.ui.sent = [...this.ui.sent.filter((t) => t !== text), text].slice(-30);
    this.persist();
  }

  private persist(): void {
    if (this.persistTimer) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      this.persistNow();
    }, 200);
  }

  persistNow(): void {
    this.api.setState(persistedUi(this.ui));
  }
}
