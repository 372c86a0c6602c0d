// The webview's store: the host's state (storeHostState.ts, applied as messages arrive), the persisted UI
// state (storeUi.ts), what the user asks for (sessions, agents) and the cards' transient answers.
// Subscribers are notified once per animation frame (in a task after it: frameTask.ts), or at once when
// where a message goes changed.
import type { AgentView, MentionCandidate, MentionRef, StartingSession } from '../../src/shared/chatState';
import type { CheckpointView } from '../../src/shared/checkpoints';
import { CHAT_PROTOCOL_VERSION, type HostToWebviewMessage, type WebviewToHostMessage } from '../../src/shared/messages';
import { afterNextFrame } from './frameTask';
import { ReadyHandshake } from './readyHandshake';
import { revealRequest } from './revealRequest';
import { type ChatState, emptyChatState, HostStateReducer, type SessionState } from './storeHostState';
import { UiStore } from './storeUi';
import { getVsCodeApi, type VsCodeApi } from './vscodeApi';

export type { Draft } from './uiState';
export type { ChatState, SessionState } from './storeHostState';

/** Key of the draft used when no session exists yet. */
export const NO_SESSION = '__new__';

const TOAST_MS = 2500;

type Listener = () => void;
/** The composer should show its draft again (text or chips were added) and take the focus. */
type ComposerListener = () => void;

export class ChatStore {
  state: ChatState = emptyChatState();
  readonly ui: UiStore;
  /** Incremented on every applied change; components use it to re-render. */
  version = 0;
  private listeners = new Set<Listener>();
  private composerListeners = new Set<ComposerListener>();
  private mentionListeners = new Set<(requestId: number, c: MentionCandidate[]) => void>();
  private frame: number | undefined;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly api: VsCodeApi;
  private readonly raf: (cb: () => void) => number;
  private readonly reducer = new HostStateReducer();
  private requestSeq = 0;
  /** Why "Open plan" failed, per session and plan, for the file the card showed (the card says it). */
  private readonly planFileErrors = new Map<string, { uri: string; error: string }>();
  /** What each open checkpoint card shows, by session and user message (absent: closed). */
  private readonly checkpoints = new Map<string, CheckpointView>();
  private readonly handshake = new ReadyHandshake((attempt) => this.post({ type: 'ready', protocolVersion: CHAT_PROTOCOL_VERSION, ...(attempt > 1 ? { attempt } : {}) }));

  constructor(api: VsCodeApi = getVsCodeApi(), raf?: (cb: () => void) => number) {
    this.api = api;
    this.raf =
      raf ??
      (typeof requestAnimationFrame === 'function' ? afterNextFrame : (cb) => setTimeout(cb, 16) as unknown as number);
    this.ui = new UiStore(api);
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

  /** Tell the host we are ready, again until it answers with `init`. */
  start(): void {
    this.handshake.start();
  }

  receive(message: HostToWebviewMessage): void {
    if (message.type === 'init') this.handshake.initReceived();
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
    switch (m.type) {
      case 'batch':
        for (const x of m.messages) this.apply(x);
        return;
      case 'newSessionSettled':
        if (this.state.starting?.requestId !== m.requestId) return;
        this.state.starting = undefined;
        // What was typed while it started goes with it.
        if (m.sessionId !== undefined) this.ui.moveDraft(NO_SESSION, m.sessionId);
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
      default:
        this.state = this.reducer.apply(this.state, m);
    }
  }

  showToast(message: string): void {
    this.state.toast = message;
    if (this.toastTimer) clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      this.state.toast = undefined;
      this.changed();
    }, TOAST_MS);
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
      const d = this.ui.draft(key);
      const text = insert ? (d.text ? `${d.text}${d.text.endsWith(' ') ? '' : ' '}${insert}` : insert) : d.text;
      this.ui.setDraft(key, { ...d, text, mentions: [...d.mentions, ...(mentions ?? [])] });
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

  // ------------------------------------------------------------------ what the user asks for

  /**
   * The user picked an agent. With a session shown or starting, another agent starts a session with it;
   * the agent of the tab shown, while another one starts, goes back to that tab.
   */
  pickAgent(agentId: string): void {
    const shown = this.selectedAgentId();
    this.ui.setAgentId(agentId);
    const active = this.active;
    if (agentId !== shown) {
      if (this.state.starting && active?.view.agentId === agentId) this.selectSession(active.view.sessionId);
      else if (active || this.state.starting) this.newSession(agentId);
    }
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
    this.ui.setHistoryOpen(open);
    this.changed();
  }
}
