// The chat's backend: the registry and router of sessions. Each Session owns its record, transcript and turn;
// AgentControl owns the agents (runtimes, sign-in, crashes); SessionConnector is what a session needs around
// it; agent requests go to the editor bridges (agentRequests.ts); history, tabs and diffs have their modules.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { NotFoundError, errorMessage, type McpServer, type SessionNotification } from '../../acp';
import type { LoginShellEnvironmentCache } from '../../agents';
import type { BackendSessionSnapshot, BackendSessionView, ChatBackend, TerminalOutputEvent, TranscriptOpsEvent } from '../../chat/chatBackend';
import type { AgentView, ElicitationAnswer, HistoryItem, TerminalSnapshot } from '../../shared/chatState';
import type { ComposerPrompt, PermissionAnswer } from '../../shared/messages';
import type { AgentSecrets } from '../auth/agentSecrets';
import type { AuthUi } from '../auth/authFlow';
import type { DiffReview } from '../diff';
import type { FsBridge } from '../fs/fsBridge';
import type { LogChannels } from '../log/logChannels';
import type { ProtocolLog } from '../log/protocolLog';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { TerminalBridge } from '../terminal/terminalBridge';
import type { AgentConfiguration } from './agentConfiguration';
import { AgentControl } from './agentControl';
import { agentRequestHandlers } from './agentRequests';
import type { AgentRuntime } from './agentRuntime';
import { forkedTranscript } from './forkTranscript';
import { Session, scopedSessionId } from './session';
import { SessionConnector } from './sessionConnector';
import { SessionDiffs } from './sessionDiffs';
import { SessionHistory } from './sessionHistory';
import { SessionRegistry } from './sessionRegistry';
import { SessionTabs } from './sessionTabs';
import type { AgentStatusBar } from './statusBar';
import type { TranscriptStore } from './transcriptStore';
import { TurnFiles } from './turnFiles';
import { sessionView } from './views';
import { additionalDirectories, workspaceCwd } from './workspaceFolders';

/** The longest session title a rename accepts. */
const MAX_TITLE = 200;

export interface SessionBackendOptions {
  logs: LogChannels;
  protocolLog: ProtocolLog;
  configuration: AgentConfiguration;
  statusBar: AgentStatusBar;
  fs: FsBridge;
  terminals: TerminalBridge;
  permissions: PermissionBroker;
  elicitations: ElicitationBroker;
  diffReview: DiffReview;
  store: TranscriptStore;
  secrets: AgentSecrets;
  shellEnvironment: LoginShellEnvironmentCache;
  clientVersion: string;
  /** `switchboard.mcpServers` as ACP McpServer entries. */
  mcpServers(): McpServer[];
}

export class SessionBackend implements ChatBackend, vscode.Disposable {
  /** The open sessions; the editor bridges ask it about sessions by agent-qualified id. */
  readonly sessions = new SessionRegistry();
  private readonly log: vscode.LogOutputChannel;
  private readonly agents: AgentControl;
  private readonly host: SessionConnector;
  private readonly history: SessionHistory;
  private readonly tabs: SessionTabs;
  private readonly diffs: SessionDiffs;
  private readonly terminalIds = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly sessionEmitter = new vscode.EventEmitter<BackendSessionView>();
  private readonly closeEmitter = new vscode.EventEmitter<string>();
  private readonly activeEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly opsEmitter = new vscode.EventEmitter<TranscriptOpsEvent>();
  private readonly historyEmitter = new vscode.EventEmitter<{ loading?: boolean }>();
  private readonly terminalEmitter = new vscode.EventEmitter<TerminalOutputEvent>();
  readonly onDidChangeSession = this.sessionEmitter.event;
  readonly onDidCloseSession = this.closeEmitter.event;
  readonly onDidChangeActiveSession = this.activeEmitter.event;
  readonly onDidApplyOps = this.opsEmitter.event;
  readonly onDidChangeHistory = this.historyEmitter.event;
  readonly onDidTerminalOutput = this.terminalEmitter.event;
  readonly onDidChangeAgents: vscode.Event<void>;

  constructor(private readonly o: SessionBackendOptions) {
    this.log = o.logs.main;
    const turnFiles = new TurnFiles(o.diffReview, o.fs, o.logs.main);
    this.agents = new AgentControl({
      ...o,
      cwd: workspaceCwd,
      handlers: (name) => agentRequestHandlers(name, { ...o, log: o.logs.main, turnFiles, sessionOf: (id) => this.sessions.scoped(id) }),
      onUpdate: (name, n) => this.onUpdate(name, n),
      onElicitationComplete: (name, id) => o.elicitations.complete(id) || this.log.info(`[${name}] elicitation/complete for ${id}, which is not pending: ignored`),
      detachSessions: (agentId, crash) => this.sessions.ofAgent(agentId).forEach((s) => s.detach(crash)),
    });
    this.onDidChangeAgents = this.agents.onDidChange;
    this.tabs = new SessionTabs(o.store, o.logs.main);
    this.host = new SessionConnector({ ...o, log: o.logs.main, turnFiles, agents: this.agents, sessions: this.sessions, tabs: this.tabs });
    this.history = new SessionHistory({ store: o.store, warn: (m) => o.logs.main.warn(m), changed: (e) => this.historyEmitter.fire(e) });
    this.diffs = new SessionDiffs(o.diffReview, o.permissions);
    const fireScoped = (scopedId: string | undefined) => {
      const session = scopedId === undefined ? undefined : this.sessions.scoped(scopedId);
      if (session) this.fireSession(session);
    };
    this.disposables.push(
      this.agents,
      this.sessionEmitter,
      this.closeEmitter,
      this.activeEmitter,
      this.opsEmitter,
      this.historyEmitter,
      this.terminalEmitter,
      o.permissions.onDidRequest((p) => fireScoped(p.sessionId)),
      o.permissions.onDidResolve((d) => {
        // A switchboard.autoApprove rule answered without a card: said where the tool call shows.
        if (d.via === 'auto' && d.autoApproved) this.sessions.scoped(d.prompt.sessionId)?.noteAutoApproval(d.prompt.toolCall.title ?? undefined, d.autoApproved.description);
        fireScoped(d.prompt.sessionId);
      }),
      o.elicitations.onDidRequest((p) => fireScoped(p.sessionId)),
      o.elicitations.onDidResolve((d) => fireScoped(d.prompt.sessionId)),
      o.diffReview.onDidChangeChangedFiles(() => this.sessions.values().forEach((s) => this.fireSession(s))),
      o.terminals.onDidOutput((e) => this.terminalOutput({ terminalId: e.terminalId, data: e.text })),
      o.terminals.onDidExit((e) => this.terminalOutput({ terminalId: e.terminalId, data: '', exitStatus: e.exitStatus })),
      o.terminals.onDidChangeOpen((e) => this.terminalOutput({ terminalId: e.terminalId, data: '', open: e.open })),
    );
  }

  // ---- what the chat reads on every handshake

  getAgents(): AgentView[] {
    return this.agents.views();
  }

  getDefaultAgentId(): string | undefined {
    return this.agents.defaultAgentId();
  }

  getSessions(): BackendSessionSnapshot[] {
    return this.sessions.values().map((s) => ({ view: sessionView(s, this.o), transcript: s.transcript }));
  }

  getActiveSessionId(): string | undefined {
    return this.sessions.activeKey;
  }

  getHistory(): HistoryItem[] {
    return this.history.list(this.sessions.indexes);
  }

  getTerminals(): TerminalSnapshot[] {
    return [...this.terminalIds].flatMap((terminalId) => {
      const t = this.o.terminals.getOutput(terminalId);
      return t ? [{ terminalId, output: t.output, truncated: t.truncated, open: t.open, ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}) }] : [];
    });
  }

  // ---- opening and closing sessions

  /** `afterSignIn`: when the agent first needs sign-in, runs with the session it opens once signed in. */
  async newSession(agentId?: string, afterSignIn?: (sessionId: string) => void): Promise<string> {
    const name = agentId ?? this.getDefaultAgentId();
    if (!name) throw new Error('No agent is configured. Add one to switchboard.agents.');
    const runtime = this.agents.runtime(name);
    const connection = await runtime.start();
    const cwd = workspaceCwd();
    const params = this.host.paramsOf({ cwd, additionalDirectories: additionalDirectories(cwd) });
    const result = await this.agents.withAuth(name, () => connection.newSession(params), {
      run: async () => {
        // Not `afterSignIn?.(await …)`: an optional call skips evaluating its argument.
        const opened = await this.newSession(name);
        afterSignIn?.(opened);
      },
      what: afterSignIn ? 'starts a session and sends your message' : 'starts the session',
    });
    const session = this.add(new Session(this.host, randomUUID(), name, result.sessionId, cwd, params.additionalDirectories), runtime);
    session.applySetup(result);
    await session.applyDefaults(this.agents.definitionOf(name), result);
    this.o.statusBar.show(name, 'ready');
    return session.key;
  }

  async openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void> {
    if (historyId.startsWith('local:')) return this.openLocal(historyId.slice('local:'.length));
    const item = this.history.agentEntry(historyId);
    if (!item) throw new Error('That history entry is gone.');
    const runtime = this.agents.runtime(item.agentId);
    const connection = await runtime.start();
    const cwd = item.cwd ?? workspaceCwd();
    const session = new Session(this.host, randomUUID(), item.agentId, item.sessionId, cwd, additionalDirectories(cwd));
    session.loading = true;
    this.add(session, runtime);
    try {
      const params = this.host.paramsOf(session);
      const open = () => (mode === 'resume' ? connection.resumeSession(item.sessionId, params) : connection.loadSession(item.sessionId, params));
      session.applySetup(await this.agents.withAuth(item.agentId, open));
      session.loaded();
    } catch (error) {
      session.loaded({ message: `Could not ${mode} the session: ${errorMessage(error)}` });
    }
  }

  /** A transcript saved by Switchboard, not bound to a live agent session yet: the first prompt loads it. */
  private async openLocal(key: string): Promise<void> {
    if (this.sessions.has(key)) return this.setActive(key);
    const { meta, transcript } = await this.tabs.load(key);
    const session = new Session(this.host, key, meta.agentId, meta.acpSessionId, meta.cwd, additionalDirectories(meta.cwd), transcript);
    session.detached = true;
    this.add(session);
    this.historyEmitter.fire({});
  }

  /** Reopens the tabs that were open before a window reload, from the local transcript store. */
  async restoreOpenTabs(): Promise<void> {
    const { keys, active } = this.tabs.toRestore();
    for (const key of keys) {
      if (!this.sessions.has(key)) await this.openLocal(key).catch((e: unknown) => this.log.warn(`Could not reopen session ${key}: ${errorMessage(e)}`));
    }
    if (active && this.sessions.has(active)) this.setActive(active);
  }

  /**
   * session/fork, opened as a new tab. `fromItemId` (a user message): the tab shows the transcript up to
   * that message's turn; the agent's fork has the whole session (the protocol has no fork point). A failure
   * (e.g. -32002, the agent no longer has the session) keeps the original tab and says why in its banner.
   */
  async forkSession(sessionId: string, fromItemId?: string): Promise<string | undefined> {
    const source = this.sessions.require(sessionId);
    try {
      const runtime = this.agents.runtime(source.agentId);
      const connection = await this.host.connect(source);
      const result = await this.agents.withAuth(source.agentId, () => connection.forkSession(source.acpSessionId, this.host.paramsOf(source)));
      const { transcript, notice } = forkedTranscript(source.transcript, source.title, result.sessionId, fromItemId);
      const fork = this.add(new Session(this.host, randomUUID(), source.agentId, result.sessionId, source.cwd, source.additionalDirectories, transcript), runtime);
      fork.applySetup(result);
      fork.note(notice.title, notice.description);
      await this.saveTabs(fork);
      return fork.key;
    } catch (error) {
      const gone = error instanceof NotFoundError ? ` ${source.agentId} no longer has this session.` : '';
      this.log.warn(`session/fork of ${source.acpSessionId} failed: ${errorMessage(error)}`);
      source.showError({ message: `Could not fork the session.${gone}`, detail: errorMessage(error) });
      return undefined;
    }
  }

  /** Rename: trimmed, at most MAX_TITLE characters; a bad title is said in the session's banner. */
  async renameSession(sessionId: string, title: string): Promise<void> {
    const session = this.sessions.require(sessionId);
    const trimmed = title.trim().replace(/\s+/g, ' ');
    if (!trimmed) return session.showError({ message: 'A session title cannot be empty.' });
    if (trimmed.length > MAX_TITLE) return session.showError({ message: `A session title can have at most ${MAX_TITLE} characters; this one has ${trimmed.length}.` });
    try {
      await session.rename(trimmed);
    } catch (error) {
      return session.showError({ message: `Could not rename the session: ${errorMessage(error)}` });
    }
    await this.saveTabs(session);
    this.historyEmitter.fire({});
  }

  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    session.cancel();
    session.detach();
    await this.tabs.save(session);
    const connection = this.agents.running(session.agentId)?.connection;
    if (connection && session.acpSessionId && connection.agent?.agentCapabilities.sessionCapabilities.close) {
      await connection.closeSession(session.acpSessionId).catch((e: unknown) => this.log.warn(`session/close failed: ${errorMessage(e)}`));
    }
    this.sessions.remove(session);
    session.dispose();
    this.closeEmitter.fire(sessionId);
    if (this.sessions.activeKey === sessionId) this.setActive(this.sessions.keys().pop());
    this.tabs.persist(this.sessions.values(), this.sessions.activeKey);
    this.historyEmitter.fire({});
  }

  /** A new session joins the registry, becomes the active tab and reaches the chat. */
  private add(session: Session, runtime?: AgentRuntime): Session {
    if (runtime) this.host.bind(session, session.acpSessionId, runtime);
    this.sessions.add(session);
    session.onDidApplyOps((ops) => this.opsEmitter.fire({ sessionId: session.key, ops }));
    session.onDidChange(() => this.fireSession(session));
    this.setActive(session.key);
    this.fireSession(session);
    return session;
  }

  // ---- what the chat does to a session

  selectSession(sessionId: string): void {
    if (this.sessions.has(sessionId)) this.setActive(sessionId);
  }

  async sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void> {
    const session = this.sessions.require(sessionId);
    // A new message replaces one that was waiting for sign-in in this session: only the latest is sent.
    this.agents.dropRetry(session.agentId, sessionId);
    return session.prompt(prompt, { shownAlready: false });
  }

  async cancel(sessionId: string): Promise<void> {
    this.sessions.get(sessionId)?.cancel();
  }

  setMode(sessionId: string, modeId: string): Promise<void> {
    return this.sessions.require(sessionId).setMode(modeId);
  }

  setModel(sessionId: string, modelId: string): Promise<void> {
    return this.sessions.require(sessionId).setModel(modelId);
  }

  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    return this.sessions.require(sessionId).setConfigOption(configId, value);
  }

  dismissError(sessionId: string): void {
    this.sessions.get(sessionId)?.dismissError();
  }

  answerPermission(sessionId: string, requestId: string, answer: PermissionAnswer): void {
    // A card dismissed without choosing: the request stays answerable from the notification or diff editor.
    if ('cancelled' in answer) this.log.info(`Permission card ${requestId} dismissed`);
    else if (!this.o.permissions.resolve(requestId, answer.optionId)) this.log.warn(`Permission ${requestId} was already answered`);
  }

  answerElicitation(_sessionId: string, requestId: string, answer: ElicitationAnswer): void {
    this.o.elicitations.resolve(requestId, answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action });
  }

  openDiff(sessionId: string, toolCallId: string, path: string): Promise<void> {
    return this.diffs.open(this.sessions.get(sessionId), toolCallId, path);
  }

  async openTerminal(sessionId: string, terminalId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (session && this.o.terminals.reveal(session.scopedId, terminalId)) return;
    // Closed by the user, trimmed or forgotten: the card stops offering it and says so.
    this.log.info(`Terminal ${terminalId} is closed; it cannot be shown`);
    this.terminalOutput({ terminalId, data: '', open: false });
  }

  changedFileAction(sessionId: string, key: string, action: 'open' | 'keep' | 'undo'): Promise<void> {
    return this.diffs.fileAction(this.sessions.require(sessionId), key, action);
  }

  changedFilesAll(sessionId: string, action: 'keep' | 'undo'): Promise<void> {
    return this.diffs.all(this.sessions.require(sessionId), action);
  }

  // ---- agents and history

  async restartAgent(agentId: string): Promise<void> {
    await this.agents.restart(agentId);
    this.o.statusBar.show(agentId, 'ready');
  }

  authenticate(agentId: string, methodId: string): Promise<void> {
    return this.agents.authenticate(agentId, methodId, workspaceCwd());
  }

  /** Sign-in prompts (replaceable in tests). */
  get authUi(): AuthUi {
    return this.agents.authUi;
  }

  set authUi(ui: AuthUi) {
    this.agents.authUi = ui;
  }

  logout(agentId: string): Promise<void> {
    return this.agents.logout(agentId);
  }

  async refreshHistory(): Promise<void> {
    await this.history.refresh(this.agents.all(), workspaceCwd());
  }

  async deleteHistory(historyId: string): Promise<void> {
    await this.history.delete(historyId, (agentId) => this.agents.running(agentId));
  }

  private onUpdate(agentName: string, notification: SessionNotification): void {
    const session = this.sessions.scoped(scopedSessionId(agentName, notification.sessionId));
    if (session) session.receive(notification.update);
    else this.log.debug(`session/update for unknown session ${notification.sessionId}`);
  }

  // ---- helpers

  private terminalOutput(e: TerminalOutputEvent): void {
    this.terminalIds.add(e.terminalId);
    this.terminalEmitter.fire(e);
  }

  private setActive(key: string | undefined): void {
    this.sessions.activeKey = key;
    this.updateTurnContext();
    this.activeEmitter.fire(key);
  }

  private fireSession(session: Session): void {
    if (!this.sessions.isOpen(session)) return;
    if (session.key === this.sessions.activeKey) this.updateTurnContext();
    this.sessionEmitter.fire(sessionView(session, this.o));
  }

  private updateTurnContext(): void {
    void vscode.commands.executeCommand('setContext', 'switchboard.turnRunning', (this.sessions.active?.turn ?? 'idle') !== 'idle');
  }

  private async saveTabs(session: Session): Promise<void> {
    await this.tabs.save(session);
    this.tabs.persist(this.sessions.values(), this.sessions.activeKey);
  }

  /** Saves every open transcript (window closing). */
  async saveAll(): Promise<void> {
    await Promise.all(this.sessions.values().map((s) => this.tabs.save(s)));
  }

  async dispose(): Promise<void> {
    await this.saveAll().catch(() => undefined);
    this.o.permissions.cancelAllPending();
    this.o.elicitations.cancelAllPending();
    await this.agents.stopAll();
    for (const s of this.sessions.values()) s.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
