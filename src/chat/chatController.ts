// The chat host's logic, free of the `vscode` module so it runs in plain Node tests: the backend's events
// become batched messages on the webview channel (transcripts as snapshots and ops, see TranscriptSync),
// and the webview's messages, checked by one schema, go to their handlers.
import { AuthRequiredError } from '../acp/errors';
import { toLineFeeds } from '../shared/ansi';
import type { SessionView, TerminalSnapshot } from '../shared/chatState';
import { CHAT_PROTOCOL_VERSION, type HostToWebviewMessage } from '../shared/messages';
import { parseWebviewMessage } from '../shared/webviewMessageSchema';
import type { BackendSessionView, ChatBackend, Disposable, HostUi, TerminalOutputEvent } from './chatBackend';
import { messageHandlers, type MessageHandlers } from './messageHandlers';
import { PromptQueue } from './promptQueue';
import { SessionRequests } from './sessionRequests';
import { TranscriptSync } from './transcriptSync';
import { WebviewChannel, type WebviewPort } from './webviewChannel';

export type { WebviewPort } from './webviewChannel';

export interface ChatControllerOptions {
  /** Batches are posted at most once per this many ms (default 16, one frame). */
  flushDelayMs?: number;
  /** Max messages kept while the view is not ready. */
  maxOutbox?: number;
  /** Max terminal output kept per terminal in one batch before older text is dropped. */
  maxTerminalChunk?: number;
}

export class ChatController implements Disposable {
  private readonly channel: WebviewChannel;
  private readonly transcripts = new TranscriptSync();
  private readonly queue: PromptQueue;
  private readonly requests: SessionRequests;
  private readonly handlers: MessageHandlers;
  private readonly views = new Map<string, BackendSessionView>();
  private readonly subscriptions: Disposable[] = [];
  private readonly maxTerminalChunk: number;

  // What changed since the last flush.
  private readonly dirtySessions = new Set<string>();
  private readonly removedSessions = new Set<string>();
  private agentsDirty = false;
  private activeDirty = false;
  private historyDirty: { loading?: boolean } | undefined;
  private readonly settledRequests: { requestId: string; sessionId?: string }[] = [];
  private readonly terminalOut = new Map<string, { data: string; exitStatus?: TerminalOutputEvent['exitStatus']; open?: boolean }>();

  constructor(
    private readonly backend: ChatBackend,
    private readonly ui: HostUi,
    options: ChatControllerOptions = {},
  ) {
    this.maxTerminalChunk = options.maxTerminalChunk ?? 256 * 1024;
    this.channel = new WebviewChannel({ ...options, collect: () => this.collect(), warn: (m) => ui.log('warn', m) });
    this.queue = new PromptQueue({
      send: (sessionId, prompt) => backend.sendPrompt(sessionId, prompt),
      turnRunning: (sessionId) => (this.views.get(sessionId)?.turn ?? 'idle') !== 'idle',
      cancel: (sessionId) => backend.cancel(sessionId),
      changed: (sessionId) => this.markDirty(() => this.dirtySessions.add(sessionId)),
      reportError: (what, e) => this.reportError(what, e),
    });
    this.requests = new SessionRequests({
      open: (agentId, afterSignIn) => backend.newSession(agentId, afterSignIn),
      settled: (requestId, sessionId) => this.markDirty(() => this.settledRequests.push(sessionId === undefined ? { requestId } : { requestId, sessionId })),
    });
    this.handlers = messageHandlers({
      backend,
      ui,
      queue: this.queue,
      requests: this.requests,
      isOpen: (sessionId) => this.views.has(sessionId),
      sendInit: () => this.sendInit(),
      toast: (message) => this.post({ type: 'toast', message }),
      reply: (message) => this.channel.reply(message),
    });
    for (const s of backend.getSessions()) this.views.set(s.view.sessionId, s.view);
    this.subscriptions.push(
      backend.onDidChangeAgents(() => this.markDirty(() => (this.agentsDirty = true))),
      backend.onDidChangeSession((v) => this.onSessionChanged(v)),
      backend.onDidCloseSession((id) => this.onSessionClosed(id)),
      backend.onDidChangeActiveSession(() => this.markDirty(() => (this.activeDirty = true))),
      backend.onDidApplyOps((e) => this.channel.isReady && this.transcripts.ops(e.sessionId, e.ops) && this.channel.schedule()),
      backend.onDidChangeHistory((e) => this.markDirty(() => (this.historyDirty = e ?? {}))),
      backend.onDidTerminalOutput((e) => this.onTerminalOutput(e)),
      ...(backend.onDidRefusePrompt ? [backend.onDidRefusePrompt((e) => this.post({ type: 'focusComposer', insert: e.prompt.text, mentions: e.prompt.mentions }))] : []),
    );
  }

  // ---- the webview's lifecycle (from the view provider)

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

  /** Sent now if the view is ready, else kept for after the next handshake. */
  post(message: HostToWebviewMessage): void {
    this.channel.post(message);
  }

  focusComposer(insert?: string): void {
    this.post(insert === undefined ? { type: 'focusComposer' } : { type: 'focusComposer', insert });
  }

  /** Builds and posts the batch of what changed now (tests; the channel does it once per frame). */
  flush(): void {
    this.channel.flush();
  }

  /** The messages typed while a session's agent worked. */
  queued(sessionId: string): ReturnType<PromptQueue['queued']> {
    return this.queue.queued(sessionId);
  }

  // ---- backend events -> one batch per frame

  private markDirty(mark: () => void): void {
    mark();
    this.channel.schedule();
  }

  private onSessionChanged(v: BackendSessionView): void {
    const prev = this.views.get(v.sessionId);
    this.views.set(v.sessionId, v);
    if (!prev) this.transcripts.opened(v.sessionId);
    this.markDirty(() => this.dirtySessions.add(v.sessionId));
    if (prev?.turn !== 'idle' && v.turn === 'idle') this.queue.drain(v.sessionId);
  }

  private onSessionClosed(id: string): void {
    this.views.delete(id);
    this.queue.closed(id);
    this.transcripts.closed(id);
    this.dirtySessions.delete(id);
    this.markDirty(() => this.removedSessions.add(id));
  }

  private onTerminalOutput(e: TerminalOutputEvent): void {
    if (!this.channel.isReady) return; // init carries backend.getTerminals()
    // The terminal bridge stripped the escapes already; it keeps \r for terminal/output, the chat does not.
    const text = toLineFeeds(e.data);
    const cur = this.terminalOut.get(e.terminalId) ?? { data: '' };
    cur.data += text;
    if (cur.data.length > this.maxTerminalChunk) cur.data = cur.data.slice(-this.maxTerminalChunk);
    if (e.exitStatus) cur.exitStatus = e.exitStatus;
    if (e.open !== undefined) cur.open = e.open;
    this.terminalOut.set(e.terminalId, cur);
    this.channel.schedule();
  }

  private sendInit(): void {
    this.clearDirty();
    const sessions = this.backend.getSessions().map((s) => {
      this.views.set(s.view.sessionId, s.view);
      return { view: this.toView(s.view), transcript: { ...s.transcript, items: s.transcript.items.slice() } };
    });
    this.transcripts.reset(sessions.map((s) => s.view.sessionId));
    const terminals: TerminalSnapshot[] = this.backend.getTerminals().map((t) => ({ ...t, output: toLineFeeds(t.output) }));
    this.channel.open({
      type: 'init',
      protocolVersion: CHAT_PROTOCOL_VERSION,
      snapshot: {
        agents: this.backend.getAgents(),
        defaultAgentId: this.backend.getDefaultAgentId(),
        sessions,
        activeSessionId: this.backend.getActiveSessionId(),
        ...(this.requests.current ? { starting: this.requests.current } : {}),
        history: this.backend.getHistory(),
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
    const out: HostToWebviewMessage[] = [];
    if (this.agentsDirty) out.push({ type: 'agents', agents: this.backend.getAgents(), defaultAgentId: this.backend.getDefaultAgentId() });
    for (const id of this.removedSessions) out.push({ type: 'sessionRemoved', sessionId: id });
    for (const id of this.dirtySessions) {
      const v = this.views.get(id);
      if (v) out.push({ type: 'session', session: this.toView(v) });
    }
    this.transcripts.collect(out, (id) => this.backend.getSessions().find((s) => s.view.sessionId === id)?.transcript);
    for (const [terminalId, t] of this.terminalOut) {
      out.push({ type: 'terminalOutput', terminalId, data: t.data, ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}), ...(t.open !== undefined ? { open: t.open } : {}) });
    }
    if (this.activeDirty) out.push({ type: 'activeSession', sessionId: this.backend.getActiveSessionId() });
    // After the session it opened and its activation, so the webview never sends to the tab it leaves.
    for (const r of this.settledRequests) out.push({ type: 'newSessionSettled', ...r });
    const h = this.historyDirty;
    if (h) out.push(h.loading === undefined ? { type: 'history', items: this.backend.getHistory() } : { type: 'history', items: this.backend.getHistory(), loading: h.loading });
    this.clearDirty();
    return out;
  }

  private toView(v: BackendSessionView): SessionView {
    return { ...v, queue: this.queue.queued(v.sessionId) };
  }

  // ---- webview -> host

  handleMessage(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.ui.log('warn', `chat: ignored a malformed message from the webview (${parsed.error})`);
      return;
    }
    const m = parsed.message;
    if (m.type === 'ready' && m.protocolVersion !== CHAT_PROTOCOL_VERSION) {
      this.ui.log('warn', `chat: webview protocol ${m.protocolVersion}, host ${CHAT_PROTOCOL_VERSION}`);
    }
    const handler = this.handlers[m.type] as (message: typeof m) => unknown;
    const fail = (e: unknown) => this.reportError(`Chat action "${m.type}" failed`, e);
    try {
      const done = handler(m);
      if (done instanceof Promise) done.catch(fail);
    } catch (e) {
      fail(e);
    }
  }

  private reportError(what: string, e: unknown): void {
    const msg = e instanceof Error ? e.message : String(e);
    // The chat shows the agent's sign-in methods where the user is looking: no notification on top.
    if (e instanceof AuthRequiredError) {
      this.ui.log('info', `${what}: ${msg} (waiting for sign-in)`);
      return;
    }
    this.ui.log('error', `${what}: ${msg}`);
    this.ui.showError(`${what}: ${msg}`);
  }

  dispose(): void {
    this.channel.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
