// The chat host's logic, free of the `vscode` module so it runs in plain Node tests: the backend's events
// become batched messages for each webview showing the chat (ChatClient: transcripts as snapshots and ops,
// see TranscriptSync), and the webviews' messages, checked by one schema, go to their handlers.
import { AuthRequiredError } from '../acp/errors';
import type { SessionView } from '../shared/chatState';
import { CHAT_PROTOCOL_VERSION, type HostToWebviewMessage } from '../shared/messages';
import { parseWebviewMessage } from '../shared/webviewMessageSchema';
import type { BackendSessionView, ChatBackend, Disposable, HostActions, HostUi } from './chatBackend';
import { ChatClient, type ChatClientContext } from './chatClient';
import { messageHandlers, type MessageHandlers } from './messageHandlers';
import { PromptQueue } from './promptQueue';
import { SessionRequests } from './sessionRequests';
import type { WebviewPort } from './webviewChannel';

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
  private readonly queue: PromptQueue;
  private readonly requests: SessionRequests;
  private readonly views = new Map<string, BackendSessionView>();
  private readonly subscriptions: Disposable[] = [];
  /** Every webview showing the chat; `main` is the side bar's. */
  private readonly clients = new Map<ChatClient, MessageHandlers>();
  private readonly main: ChatClient;
  private readonly clientContext: ChatClientContext;
  private hostRequests = 0;

  constructor(
    private readonly backend: ChatBackend,
    private readonly ui: HostUi,
    private readonly actions: HostActions,
    private readonly options: ChatControllerOptions = {},
  ) {
    this.queue = new PromptQueue({
      send: (tabId, prompt, shownAlready) => {
        const session = backend.sessions.get(tabId);
        if (!session) throw new Error('That session is closed.');
        return session.prompt(prompt, { shownAlready });
      },
      open: (agentId) => backend.lifecycle.open(agentId),
      agentOf: (tabId) => backend.sessions.get(tabId)?.agentId,
      turnRunning: (tabId) => (this.views.get(tabId)?.turn ?? 'idle') !== 'idle',
      cancel: async (tabId) => backend.sessions.get(tabId)?.cancel(),
      changed: (sessionId) => this.each((c) => c.session(sessionId, false)),
      reportError: (what, e) => this.reportError(what, e),
    });
    this.requests = new SessionRequests({
      open: (agentId) => backend.lifecycle.open(agentId),
      defaultAgentId: () => backend.agents.defaultAgentId(),
      settled: (requestId, sessionId) => this.each((c) => c.settled(sessionId === undefined ? { requestId } : { requestId, sessionId })),
    });
    this.clientContext = {
      backend,
      view: (id) => this.views.get(id),
      refreshViews: (views) => {
        for (const v of views) this.views.set(v.sessionId, v);
      },
      toView: (v) => this.toView(v),
      starting: () => this.requests.current,
      warn: (m) => ui.log('warn', m),
      maxTerminalChunk: options.maxTerminalChunk ?? 256 * 1024,
    };
    this.main = this.connect();
    const { sessions } = backend;
    for (const s of sessions.snapshots()) this.views.set(s.view.sessionId, s.view);
    this.subscriptions.push(
      backend.agents.onDidChange(() => this.each((c) => c.agents())),
      backend.agents.onDidSignIn((agentId) => {
        this.requests.signedIn(agentId);
        this.queue.signedIn(agentId);
      }),
      sessions.onDidChangeSession((v) => this.onSessionChanged(v)),
      sessions.onDidCloseSession((id) => this.onSessionClosed(id)),
      sessions.onDidChangeActiveSession(() => this.each((c) => c.active())),
      sessions.onDidApplyOps((e) => this.each((c) => c.ops(e))),
      sessions.onDidRefusePrompt((e) => this.post({ type: 'focusComposer', insert: e.prompt.text, mentions: e.prompt.mentions })),
      backend.history.onDidChange((e) => this.each((c) => c.history(e ?? {}))),
      backend.terminals.onDidOutput((e) => this.each((c) => c.terminalOutput(e))),
    );
  }

  /**
   * A new session the host asked for (a command): it opens after the agent's sign-in too. Resolves with
   * its tab; rejects as opening it did.
   */
  newSession(agentId: string | undefined): Promise<string> {
    return this.requests.start(agentId, `host:${++this.hostRequests}`, false);
  }

  /** Another webview shows the same chat (an editor tab): its own channel over the same sessions and queues. */
  connect(): ChatClient {
    const client = new ChatClient(this.clientContext, this.options);
    this.clients.set(
      client,
      messageHandlers({
        backend: this.backend,
        ui: this.ui,
        actions: this.actions,
        queue: this.queue,
        requests: this.requests,
        isOpen: (sessionId) => this.views.has(sessionId),
        sendInit: () => client.sendInit(),
        toast: (message) => client.post({ type: 'toast', message }),
        reply: (message) => client.reply(message),
      }),
    );
    return client;
  }

  /** A webview from `connect` is gone for good. */
  disconnect(client: ChatClient): void {
    if (client === this.main) return;
    this.clients.delete(client);
    client.dispose();
  }

  private each(f: (c: ChatClient) => void): void {
    for (const c of this.clients.keys()) f(c);
  }

  // ---- the side bar's webview (from the view provider)

  attach(port: WebviewPort): void {
    this.main.attach(port);
  }

  detach(): void {
    this.main.detach();
  }

  setVisible(visible: boolean): void {
    this.main.setVisible(visible);
  }

  get isReady(): boolean {
    return this.main.isReady;
  }

  /** Sent now if the view is ready, else kept for after the next handshake. */
  post(message: HostToWebviewMessage): void {
    this.main.post(message);
  }

  focusComposer(insert?: string): void {
    this.post(insert === undefined ? { type: 'focusComposer' } : { type: 'focusComposer', insert });
  }

  /** Builds and posts the batch of what changed now (the channel does it once per frame; a message that must follow those changes flushes first). */
  flush(): void {
    this.main.flush();
  }

  /** The messages typed while a session's agent worked. */
  queued(sessionId: string): ReturnType<PromptQueue['queued']> {
    return this.queue.queued(sessionId);
  }

  // ---- backend events -> one batch per frame in each webview

  private onSessionChanged(v: BackendSessionView): void {
    const prev = this.views.get(v.sessionId);
    this.views.set(v.sessionId, v);
    this.each((c) => c.session(v.sessionId, !prev));
    if (prev?.turn !== 'idle' && v.turn === 'idle') this.queue.drain(v.sessionId);
  }

  private onSessionClosed(id: string): void {
    this.views.delete(id);
    this.queue.closed(id);
    this.each((c) => c.removed(id));
  }

  private toView(v: BackendSessionView): SessionView {
    return { ...v, queue: this.queue.queued(v.sessionId) };
  }

  // ---- webview -> host

  /** A message from a webview (the side bar's unless `from` says which). */
  handleMessage(raw: unknown, from: ChatClient = this.main): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.ui.log('warn', `chat: ignored a malformed message from the webview (${parsed.error})`);
      return;
    }
    const m = parsed.message;
    if (m.type === 'ready' && m.protocolVersion !== CHAT_PROTOCOL_VERSION) {
      this.ui.log('warn', `chat: webview protocol ${m.protocolVersion}, host ${CHAT_PROTOCOL_VERSION}`);
    }
    if (m.type === 'ready' && m.attempt !== undefined) this.ui.log('warn', `chat: the webview asked for its state again (ask ${m.attempt}): an earlier ready or init was lost`);
    const handlers = this.clients.get(from);
    if (!handlers) return;
    if (m.type !== 'ready' && from.resyncIfStale()) {
      this.ui.log('warn', `chat: the webview sent "${m.type}" while the host had stopped sending to it: its whole state went again`);
    }
    const handler = handlers[m.type] as (message: typeof m) => unknown;
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
    for (const c of this.clients.keys()) c.dispose();
    this.clients.clear();
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
