// One webview showing the chat (the side bar view, an editor tab): its channel, what it has seen of each
// transcript, and what changed since its last batch. The controller owns the state every webview shares
// (sessions, queues, new-session requests) and marks each client dirty; each client builds its own batches.
import { toLineFeeds } from '../shared/ansi';
import type { SessionView, StartingSession, TerminalSnapshot } from '../shared/chatState';
import { CHAT_PROTOCOL_VERSION, type HostToWebviewMessage } from '../shared/messages';
import type { BackendSessionView, ChatBackend, TerminalOutputEvent, TranscriptOpsEvent } from './chatBackend';
import { TranscriptSync } from './transcriptSync';
import { WebviewChannel, type WebviewChannelOptions, type WebviewPort } from './surfaces/webviewChannel';

/** What a client reads from the controller's shared state. */
export interface ChatClientContext {
  backend: ChatBackend;
  view(sessionId: string): BackendSessionView | undefined;
  /** The backend's views were read again (an init). */
  refreshViews(views: readonly BackendSessionView[]): void;
  toView(v: BackendSessionView): SessionView;
  starting(): StartingSession | undefined;
  warn(message: string): void;
  maxTerminalChunk: number;
}

export class ChatClient {
  private readonly channel: WebviewChannel;
  private readonly transcripts = new TranscriptSync();

  // What changed since the last flush.
  private readonly dirtySessions = new Set<string>();
  private readonly removedSessions = new Set<string>();
  private agentsDirty = false;
  private activeDirty = false;
  private historyDirty: { loading?: boolean } | undefined;
  private readonly settledRequests: { requestId: string; sessionId?: string }[] = [];
  private readonly terminalOut = new Map<string, { data: string; exitStatus?: TerminalOutputEvent['exitStatus']; open?: boolean }>();

  constructor(
    private readonly ctx: ChatClientContext,
    options: Pick<WebviewChannelOptions, 'flushDelayMs' | 'maxOutbox'>,
  ) {
    this.channel = new WebviewChannel({ ...options, collect: () => this.collect(), warn: (m) => ctx.warn(m) });
  }

  // ---- the webview's lifecycle

  attach(port: WebviewPort): void {
    this.channel.attach(port);
    this.transcripts.clear();
  }

  detach(): void {
    this.channel.detach();
    this.transcripts.clear();
  }

  setVisible(visible: boolean): void {
    this.channel.setVisible(visible);
    if (!visible) this.transcripts.clear();
  }

  get isReady(): boolean {
    return this.channel.isReady;
  }

  /**
   * The webview sent something other than `ready`, so it is live and showing its state: if the host had
   * stopped sending to it (a delivery failed, a visibility change arrived late), it gets its whole state
   * again now instead of staying frozen. True when it did.
   */
  resyncIfStale(): boolean {
    if (!this.channel.isAttached || this.channel.isReady) return false;
    this.sendInit();
    return true;
  }

  /** Sent now if the view is ready, else kept for after the next handshake. */
  post(message: HostToWebviewMessage): void {
    this.channel.post(message);
  }

  /** A reply that only matters to the live view. */
  reply(message: HostToWebviewMessage): void {
    this.channel.reply(message);
  }

  flush(): void {
    this.channel.flush();
  }

  // ---- what changed (from the controller)

  session(id: string, opened: boolean): void {
    if (opened) this.transcripts.opened(id);
    this.dirtySessions.add(id);
    this.channel.schedule();
  }

  removed(id: string): void {
    this.transcripts.closed(id);
    this.dirtySessions.delete(id);
    this.removedSessions.add(id);
    this.channel.schedule();
  }

  agents(): void {
    this.agentsDirty = true;
    this.channel.schedule();
  }

  active(): void {
    this.activeDirty = true;
    this.channel.schedule();
  }

  history(e: { loading?: boolean }): void {
    this.historyDirty = e;
    this.channel.schedule();
  }

  settled(r: { requestId: string; sessionId?: string }): void {
    this.settledRequests.push(r);
    this.channel.schedule();
  }

  ops(e: TranscriptOpsEvent): void {
    if (this.channel.isReady && this.transcripts.ops(e.tabId, e.ops)) this.channel.schedule();
  }

  terminalOutput(e: TerminalOutputEvent): void {
    if (!this.channel.isReady) return; // init carries the terminals' snapshots
    // The terminal bridge stripped the escapes already; it keeps \r for terminal/output, the chat does not.
    const text = toLineFeeds(e.data);
    const cur = this.terminalOut.get(e.terminalId) ?? { data: '' };
    cur.data += text;
    if (cur.data.length > this.ctx.maxTerminalChunk) cur.data = cur.data.slice(-this.ctx.maxTerminalChunk);
    if (e.exitStatus) cur.exitStatus = e.exitStatus;
    if (e.open !== undefined) cur.open = e.open;
    this.terminalOut.set(e.terminalId, cur);
    this.channel.schedule();
  }

  // ---- batches

  /** The webview is ready or drifted: the whole state, then what was queued for it. */
  sendInit(): void {
    this.clearDirty();
    const backend = this.ctx.backend;
    const snapshots = backend.sessions.snapshots();
    this.ctx.refreshViews(snapshots.map((s) => s.view));
    const sessions = snapshots.map((s) => ({ view: this.ctx.toView(s.view), transcript: { ...s.transcript, items: s.transcript.items.slice() } }));
    this.transcripts.reset(sessions.map((s) => s.view.sessionId));
    const terminals: TerminalSnapshot[] = backend.terminals.snapshots().map((t) => ({ ...t, output: toLineFeeds(t.output) }));
    const starting = this.ctx.starting();
    this.channel.open({
      type: 'init',
      protocolVersion: CHAT_PROTOCOL_VERSION,
      snapshot: {
        agents: backend.agents.views(),
        defaultAgentId: backend.agents.defaultAgentId(),
        sessions,
        activeSessionId: backend.sessions.activeTabId(),
        ...(starting ? { starting } : {}),
        history: backend.history.list(),
        terminals,
      },
    });
  }

  private clearDirty(): void {
    this.dirtySessions.clear();
    this.removedSessions.clear();
    this.agentsDirty = false;
    this.activeDirty = false;
    this.historyDirty = undefined;
    this.terminalOut.clear();
    this.settledRequests.length = 0;
  }

  /** Everything that changed since the last flush, in the order the webview applies it. */
  private collect(): HostToWebviewMessage[] {
    const backend = this.ctx.backend;
    const out: HostToWebviewMessage[] = [];
    if (this.agentsDirty) out.push({ type: 'agents', agents: backend.agents.views(), defaultAgentId: backend.agents.defaultAgentId() });
    for (const id of this.removedSessions) out.push({ type: 'sessionRemoved', sessionId: id });
    for (const id of this.dirtySessions) {
      const v = this.ctx.view(id);
      if (v) out.push({ type: 'session', session: this.ctx.toView(v) });
    }
    this.transcripts.collect(out, (id) => backend.sessions.get(id)?.transcript);
    for (const [terminalId, t] of this.terminalOut) {
      out.push({ type: 'terminalOutput', terminalId, data: t.data, ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}), ...(t.open !== undefined ? { open: t.open } : {}) });
    }
    if (this.activeDirty) out.push({ type: 'activeSession', sessionId: backend.sessions.activeTabId() });
    // After the session it opened and its activation, so the webview never sends to the tab it leaves.
    for (const r of this.settledRequests) out.push({ type: 'newSessionSettled', ...r });
    const h = this.historyDirty;
    if (h) out.push(h.loading === undefined ? { type: 'history', items: backend.history.list() } : { type: 'history', items: backend.history.list(), loading: h.loading });
    this.clearDirty();
    return out;
  }

  dispose(): void {
    this.channel.dispose();
    this.transcripts.clear();
  }
}
