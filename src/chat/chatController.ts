// The chat host's logic, free of the `vscode` module so it runs in plain Node tests:
// ready handshake, queue while the view is not ready, batched deltas, the per-session message queue,
// and dispatch of webview messages to the ChatBackend / HostUi.

import type { MentionCandidate, QueuedMessage, SessionView, TerminalSnapshot } from '../shared/chatState';
import {
  CHAT_PROTOCOL_VERSION,
  isWebviewToHostMessage,
  type ComposerPrompt,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from '../shared/messages';
import type { Transcript } from '../shared/transcript';
import { AuthRequiredError } from '../acp/errors';
import { stripAnsi, stripAnsiStreaming } from '../shared/ansi';
import type { BackendSessionView, ChatBackend, Disposable, TerminalOutputEvent, TranscriptChangeEvent } from './chatBackend';
import { TranscriptDiffer } from './transcriptDiff';

/** Where messages go: `webview.postMessage` (resolves false when the webview is not live). */
export interface WebviewPort {
  postMessage(message: HostToWebviewMessage): PromiseLike<boolean> | boolean | void;
}

/** Editor / environment actions the panel triggers; implemented with the VS Code API in hostUi.ts. */
export interface HostUi {
  copy(text: string): Promise<void>;
  insertAtCursor(code: string): Promise<void>;
  openInEditor(code: string, language?: string): Promise<void>;
  /** Opens only http(s)/mailto via openExternal (VS Code confirms) or a workspace file. */
  openLink(href: string): Promise<void>;
  openLocation(path: string, line?: number): Promise<void>;
  openResource(uri: string): Promise<void>;
  showProtocolLog(): Promise<void>;
  queryMentions(query: string, sessionId: string | undefined): Promise<MentionCandidate[]>;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** Shown to the user (non-modal). */
  showError(message: string): void;
}

export interface ChatControllerOptions {
  /**
   * Batches are posted at most once per this many ms (default 16, one frame). The first update after a
   * quiet period goes out at once (next macrotask, so a synchronous burst is still one batch).
   */
  flushDelayMs?: number;
  /** Max messages kept while the view is not ready (oldest dropped; state is resent on ready anyway). */
  maxOutbox?: number;
  /** Max terminal output kept per terminal in one batch before older text is dropped. */
  maxTerminalChunk?: number;
}

interface DirtyTranscript {
  transcript: Transcript;
  changed: Set<string>;
  reset: boolean;
}

export class ChatController implements Disposable {
  private port: WebviewPort | undefined;
  private ready = false;
  private readonly outbox: HostToWebviewMessage[] = [];
  private readonly differs = new Map<string, TranscriptDiffer>();
  private readonly views = new Map<string, BackendSessionView>();
  private readonly queues = new Map<string, QueuedMessage[]>();
  private readonly inFlight = new Set<string>();
  private readonly pendingSendNow = new Set<string>();
  private queueSeq = 0;

  // Dirty state, flushed as one batch.
  private readonly dirtyTranscripts = new Map<string, DirtyTranscript>();
  private readonly dirtySessions = new Set<string>();
  private readonly removedSessions = new Set<string>();
  private agentsDirty = false;
  private activeDirty = false;
  private historyDirty: { loading?: boolean } | undefined;
  private readonly terminalOut = new Map<string, { data: string; exitStatus?: TerminalOutputEvent['exitStatus'] }>();
  private readonly terminalCarry = new Map<string, string>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFlushAt = -Infinity;
  private readonly subscriptions: Disposable[] = [];
  private readonly flushDelayMs: number;
  private readonly maxOutbox: number;
  private readonly maxTerminalChunk: number;

  constructor(
    private readonly backend: ChatBackend,
    private readonly ui: HostUi,
    options: ChatControllerOptions = {},
  ) {
    this.flushDelayMs = options.flushDelayMs ?? 16;
    this.maxOutbox = options.maxOutbox ?? 200;
    this.maxTerminalChunk = options.maxTerminalChunk ?? 256 * 1024;
    for (const s of backend.getSessions()) this.views.set(s.view.sessionId, s.view);
    this.subscriptions.push(
      backend.onDidChangeAgents(() => this.markDirty(() => (this.agentsDirty = true))),
      backend.onDidChangeSession((v) => this.onSessionChanged(v)),
      backend.onDidCloseSession((id) => this.onSessionClosed(id)),
      backend.onDidChangeActiveSession(() => this.markDirty(() => (this.activeDirty = true))),
      backend.onDidChangeTranscript((e) => this.onTranscriptChanged(e)),
      backend.onDidChangeHistory((e) => this.markDirty(() => (this.historyDirty = e ?? {}))),
      backend.onDidTerminalOutput((e) => this.onTerminalOutput(e)),
    );
  }

  // ---------------------------------------------------------------- webview lifecycle

  /** A webview was resolved; it will post `ready` when its script runs. */
  attach(port: WebviewPort): void {
    this.port = port;
    this.ready = false;
  }

  /** The webview was disposed. */
  detach(): void {
    this.port = undefined;
    this.ready = false;
  }

  /**
   * Visibility changed. Without retainContextWhenHidden a hidden webview is torn down, so until it posts
   * `ready` again nothing is sent (it gets a full `init` then).
   */
  setVisible(visible: boolean): void {
    if (!visible) this.ready = false;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Send a message now if the view is ready, else keep it for after the next handshake. */
  post(message: HostToWebviewMessage): void {
    if (this.ready && this.port) {
      this.deliver(message);
      return;
    }
    this.outbox.push(message);
    if (this.outbox.length > this.maxOutbox) this.outbox.splice(0, this.outbox.length - this.maxOutbox);
  }

  focusComposer(insert?: string): void {
    this.post(insert === undefined ? { type: 'focusComposer' } : { type: 'focusComposer', insert });
  }

  private deliver(message: HostToWebviewMessage): void {
    const port = this.port;
    if (!port) return;
    try {
      const r = port.postMessage(message);
      if (r && typeof (r as PromiseLike<boolean>).then === 'function') {
        (r as PromiseLike<boolean>).then(
          (ok) => {
            // Not delivered: the webview is gone or hidden; resync on its next `ready`.
            if (ok === false && this.port === port) this.ready = false;
          },
          () => {
            if (this.port === port) this.ready = false;
          },
        );
      }
    } catch (e) {
      this.ready = false;
      this.ui.log('warn', `chat: postMessage failed: ${String(e)}`);
    }
  }

  private sendInit(): void {
    this.cancelFlush();
    this.dirtyTranscripts.clear();
    this.dirtySessions.clear();
    this.removedSessions.clear();
    this.agentsDirty = false;
    this.activeDirty = false;
    this.historyDirty = undefined;
    this.terminalOut.clear();
    this.differs.clear();
    const sessions = this.backend.getSessions().map((s) => {
      this.views.set(s.view.sessionId, s.view);
      const d = new TranscriptDiffer();
      d.reset(s.transcript);
      this.differs.set(s.view.sessionId, d);
      return { view: this.toView(s.view), transcript: s.transcript };
    });
    const terminals: TerminalSnapshot[] = this.backend.getTerminals().map((t) => ({ ...t, output: stripAnsi(t.output) }));
    this.ready = true;
    this.deliver({
      type: 'init',
      protocolVersion: CHAT_PROTOCOL_VERSION,
      snapshot: {
        agents: this.backend.getAgents(),
        defaultAgentId: this.backend.getDefaultAgentId(),
        sessions,
        activeSessionId: this.backend.getActiveSessionId(),
        history: this.backend.getHistory(),
        terminals,
      },
    });
    const queued = this.outbox.splice(0);
    for (const m of queued) this.deliver(m);
  }

  // ---------------------------------------------------------------- backend events -> batched messages

  private markDirty(mark: () => void): void {
    mark();
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (!this.ready || this.flushTimer !== undefined) return;
    // A throttle, not a debounce: a steady stream is posted every flushDelayMs, never held back.
    const wait = Math.max(0, this.lastFlushAt + this.flushDelayMs - performance.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, wait);
  }

  private cancelFlush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  private onSessionChanged(v: BackendSessionView): void {
    const prev = this.views.get(v.sessionId);
    this.views.set(v.sessionId, v);
    this.markDirty(() => this.dirtySessions.add(v.sessionId));
    if (prev?.turn !== 'idle' && v.turn === 'idle') this.drainQueue(v.sessionId);
  }

  private onSessionClosed(id: string): void {
    this.views.delete(id);
    this.queues.delete(id);
    this.differs.delete(id);
    this.dirtyTranscripts.delete(id);
    this.dirtySessions.delete(id);
    this.markDirty(() => this.removedSessions.add(id));
  }

  private onTranscriptChanged(e: TranscriptChangeEvent): void {
    if (!this.ready) return; // init will carry the whole transcript
    let d = this.dirtyTranscripts.get(e.sessionId);
    if (!d) {
      d = { transcript: e.transcript, changed: new Set(), reset: false };
      this.dirtyTranscripts.set(e.sessionId, d);
    }
    d.transcript = e.transcript;
    if (e.reset) d.reset = true;
    if (e.changedItemIds) for (const id of e.changedItemIds) d.changed.add(id);
    this.scheduleFlush();
  }

  private onTerminalOutput(e: TerminalOutputEvent): void {
    if (!this.ready) return; // init carries backend.getTerminals()
    const { text, carry } = stripAnsiStreaming(this.terminalCarry.get(e.terminalId) ?? '', e.data);
    this.terminalCarry.set(e.terminalId, carry);
    const cur = this.terminalOut.get(e.terminalId) ?? { data: '' };
    cur.data += text;
    if (cur.data.length > this.maxTerminalChunk) cur.data = cur.data.slice(-this.maxTerminalChunk);
    if (e.exitStatus) cur.exitStatus = e.exitStatus;
    this.terminalOut.set(e.terminalId, cur);
    this.scheduleFlush();
  }

  /** Builds and posts one batch with everything that changed since the last flush. */
  flush(): void {
    this.cancelFlush();
    if (!this.ready || !this.port) return;
    this.lastFlushAt = performance.now();
    const out: HostToWebviewMessage[] = [];
    if (this.agentsDirty) {
      this.agentsDirty = false;
      out.push({ type: 'agents', agents: this.backend.getAgents(), defaultAgentId: this.backend.getDefaultAgentId() });
    }
    for (const id of this.removedSessions) out.push({ type: 'sessionRemoved', sessionId: id });
    this.removedSessions.clear();
    for (const id of this.dirtySessions) {
      const v = this.views.get(id);
      if (v) out.push({ type: 'session', session: this.toView(v) });
    }
    this.dirtySessions.clear();
    for (const [sessionId, d] of this.dirtyTranscripts) {
      let differ = this.differs.get(sessionId);
      const result = !differ || d.reset ? 'reset' : differ.diff(d.transcript, d.changed);
      if (result === 'reset') {
        if (!differ) {
          differ = new TranscriptDiffer();
          this.differs.set(sessionId, differ);
        }
        differ.reset(d.transcript);
        out.push({ type: 'transcriptReset', sessionId, transcript: d.transcript });
      } else if (result.length) {
        out.push({ type: 'transcriptOps', sessionId, ops: result });
      }
    }
    this.dirtyTranscripts.clear();
    for (const [terminalId, t] of this.terminalOut) {
      out.push(
        t.exitStatus
          ? { type: 'terminalOutput', terminalId, data: t.data, exitStatus: t.exitStatus }
          : { type: 'terminalOutput', terminalId, data: t.data },
      );
    }
    this.terminalOut.clear();
    if (this.activeDirty) {
      this.activeDirty = false;
      out.push({ type: 'activeSession', sessionId: this.backend.getActiveSessionId() });
    }
    if (this.historyDirty) {
      const h = this.historyDirty;
      this.historyDirty = undefined;
      out.push(h.loading === undefined ? { type: 'history', items: this.backend.getHistory() } : { type: 'history', items: this.backend.getHistory(), loading: h.loading });
    }
    if (out.length === 1) this.deliver(out[0]);
    else if (out.length > 1) this.deliver({ type: 'batch', messages: out });
  }

  private toView(v: BackendSessionView): SessionView {
    return { ...v, queue: this.queues.get(v.sessionId) ?? [] };
  }

  // ---------------------------------------------------------------- the message queue (typed while busy)

  private isBusy(sessionId: string): boolean {
    return this.inFlight.has(sessionId) || (this.views.get(sessionId)?.turn ?? 'idle') !== 'idle';
  }

  private submit(sessionId: string, prompt: ComposerPrompt): void {
    if (this.isBusy(sessionId) || (this.queues.get(sessionId)?.length ?? 0) > 0) {
      const q = this.queues.get(sessionId) ?? [];
      q.push({ id: `q${++this.queueSeq}`, text: prompt.text, mentions: prompt.mentions, images: prompt.images });
      this.queues.set(sessionId, q);
      this.markDirty(() => this.dirtySessions.add(sessionId));
      this.drainQueue(sessionId);
      return;
    }
    this.dispatch(sessionId, prompt);
  }

  private dispatch(sessionId: string, prompt: ComposerPrompt): void {
    this.inFlight.add(sessionId);
    let p: Promise<void>;
    try {
      p = Promise.resolve(this.backend.sendPrompt(sessionId, prompt));
    } catch (e) {
      p = Promise.reject(e);
    }
    p.catch((e: unknown) => this.reportError('Sending the message failed', e)).finally(() => {
      this.inFlight.delete(sessionId);
      this.drainQueue(sessionId);
    });
  }

  private drainQueue(sessionId: string): void {
    if (this.isBusy(sessionId)) return;
    const q = this.queues.get(sessionId);
    const next = q?.shift();
    if (!next) return;
    this.pendingSendNow.delete(sessionId);
    this.markDirty(() => this.dirtySessions.add(sessionId));
    this.dispatch(sessionId, { text: next.text, mentions: next.mentions, images: next.images });
  }

  /** For tests and the integrator: the queued messages of a session. */
  queued(sessionId: string): readonly QueuedMessage[] {
    return this.queues.get(sessionId) ?? [];
  }

  // ---------------------------------------------------------------- webview -> host

  handleMessage(raw: unknown): void {
    if (!isWebviewToHostMessage(raw)) {
      this.ui.log('warn', 'chat: ignored a malformed message from the webview');
      return;
    }
    void this.handle(raw).catch((e: unknown) => this.reportError(`Chat action "${raw.type}" failed`, e));
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

  private async handle(m: WebviewToHostMessage): Promise<void> {
    const b = this.backend;
    switch (m.type) {
      case 'ready':
        if (m.protocolVersion !== CHAT_PROTOCOL_VERSION) {
          this.ui.log('warn', `chat: webview protocol ${m.protocolVersion}, host ${CHAT_PROTOCOL_VERSION}`);
        }
        this.sendInit();
        return;
      case 'resync':
        this.ui.log('warn', `chat: webview asked for a resync (${m.reason})`);
        this.sendInit();
        return;
      case 'newSession':
        await b.newSession(str(m.agentId));
        return;
      case 'selectSession':
        b.selectSession(req(m.sessionId));
        return;
      case 'closeSession':
        await b.closeSession(req(m.sessionId));
        return;
      case 'prompt': {
        const prompt = sanitizePrompt(m.prompt);
        if (!prompt.text.trim() && !prompt.images.length && !prompt.mentions.length) return;
        let sessionId = str(m.sessionId);
        if (!sessionId || !this.views.has(sessionId)) {
          // When the agent needs sign-in first, the message is sent in the session opened after it.
          sessionId = await b.newSession(str(m.agentId), (opened) => this.submit(opened, prompt));
        }
        this.submit(sessionId, prompt);
        return;
      }
      case 'cancel':
        await b.cancel(req(m.sessionId));
        return;
      case 'queueEdit': {
        const item = this.queues.get(m.sessionId)?.find((q) => q.id === m.queueId);
        if (item && typeof m.text === 'string') {
          item.text = m.text;
          this.markDirty(() => this.dirtySessions.add(m.sessionId));
        }
        return;
      }
      case 'queueRemove': {
        const q = this.queues.get(m.sessionId);
        const i = q?.findIndex((x) => x.id === m.queueId) ?? -1;
        if (q && i >= 0) {
          q.splice(i, 1);
          this.markDirty(() => this.dirtySessions.add(m.sessionId));
        }
        return;
      }
      case 'queueSendNow': {
        const q = this.queues.get(m.sessionId);
        const i = q?.findIndex((x) => x.id === m.queueId) ?? -1;
        if (!q || i < 0) return;
        const [item] = q.splice(i, 1);
        q.unshift(item);
        this.markDirty(() => this.dirtySessions.add(m.sessionId));
        if (this.isBusy(m.sessionId)) {
          this.pendingSendNow.add(m.sessionId);
          await b.cancel(m.sessionId);
        } else {
          this.drainQueue(m.sessionId);
        }
        return;
      }
      case 'setMode':
        await b.setMode(req(m.sessionId), req(m.modeId));
        return;
      case 'setModel':
        await b.setModel(req(m.sessionId), req(m.modelId));
        return;
      case 'setConfigOption':
        if (typeof m.value !== 'string' && typeof m.value !== 'boolean') throw new Error('bad config value');
        await b.setConfigOption(req(m.sessionId), req(m.configId), m.value);
        return;
      case 'permissionAnswer': {
        const a = m.answer;
        const answer = a && 'optionId' in a && typeof a.optionId === 'string' ? { optionId: a.optionId } : { cancelled: true as const };
        b.answerPermission(req(m.sessionId), req(m.requestId), answer);
        return;
      }
      case 'elicitationAnswer':
        b.answerElicitation(req(m.sessionId), req(m.requestId), m.answer);
        return;
      case 'dismissError':
        b.dismissError(req(m.sessionId));
        return;
      case 'restartAgent':
        await b.restartAgent(req(m.agentId));
        return;
      case 'authenticate':
        await b.authenticate(req(m.agentId), req(m.methodId));
        return;
      case 'refreshHistory':
        await b.refreshHistory();
        return;
      case 'openHistory':
        await b.openHistory(req(m.historyId), m.mode === 'resume' ? 'resume' : 'load');
        return;
      case 'deleteHistory':
        await b.deleteHistory(req(m.historyId));
        return;
      case 'mentionQuery': {
        const query = typeof m.query === 'string' ? m.query.slice(0, 200) : '';
        const sessionId = str(m.sessionId);
        const candidates = await (b.queryMentions ? b.queryMentions(query, sessionId) : this.ui.queryMentions(query, sessionId));
        if (this.ready) this.deliver({ type: 'mentionResults', requestId: Number(m.requestId) || 0, candidates });
        return;
      }
      case 'copyCode':
        await this.ui.copy(req(m.code));
        this.post({ type: 'toast', message: 'Copied' });
        return;
      case 'insertCode':
        await this.ui.insertAtCursor(req(m.code));
        return;
      case 'openCode':
        await this.ui.openInEditor(req(m.code), str(m.language));
        return;
      case 'openLink':
        await this.ui.openLink(req(m.href));
        return;
      case 'openLocation':
        await this.ui.openLocation(req(m.path), typeof m.line === 'number' ? m.line : undefined);
        return;
      case 'openResource':
        await this.ui.openResource(req(m.uri));
        return;
      case 'openDiff':
        await b.openDiff(req(m.sessionId), req(m.toolCallId), req(m.path));
        return;
      case 'changedFileAction': {
        const action = m.action === 'open' || m.action === 'keep' || m.action === 'undo' ? m.action : undefined;
        if (!action) throw new Error('malformed message from the webview');
        if (!b.changedFileAction) throw new Error('changed files are not supported here');
        await b.changedFileAction(req(m.sessionId), req(m.key), action);
        return;
      }
      case 'changedFilesAll': {
        const action = m.action === 'keep' || m.action === 'undo' ? m.action : undefined;
        if (!action) throw new Error('malformed message from the webview');
        if (!b.changedFilesAll) throw new Error('changed files are not supported here');
        await b.changedFilesAll(req(m.sessionId), action);
        return;
      }
      case 'showProtocolLog':
        await this.ui.showProtocolLog();
        return;
      case 'log':
        this.ui.log(m.level === 'error' || m.level === 'warn' ? m.level : 'info', `webview: ${String(m.message).slice(0, 2000)}`);
        return;
    }
  }

  dispose(): void {
    this.cancelFlush();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.port = undefined;
    this.ready = false;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function req(v: unknown): string {
  if (typeof v !== 'string') throw new Error('malformed message from the webview');
  return v;
}

/** The webview is untrusted input: keep only well-formed fields. */
function sanitizePrompt(p: ComposerPrompt | undefined): ComposerPrompt {
  const text = typeof p?.text === 'string' ? p.text : '';
  const mentions = Array.isArray(p?.mentions)
    ? p.mentions.filter((x) => x && typeof x.uri === 'string' && typeof x.label === 'string' && typeof x.kind === 'string')
    : [];
  const images = Array.isArray(p?.images)
    ? p.images.filter((x) => x && typeof x.data === 'string' && typeof x.mimeType === 'string' && /^image\//.test(x.mimeType))
    : [];
  return { text, mentions, images };
}
