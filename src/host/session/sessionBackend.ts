// The chat's backend: the registry and router of sessions and agent runtimes. Each Session owns its record,
// transcript and turn; AgentRuntimes owns the agent processes; agent requests go to the editor bridges
// (agentRequests.ts); sign-in, history and the files a turn changed live in their own modules.
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import { NotFoundError, errorMessage, type AcpClientConnection, type AgentAuthStatus, type McpServer, type SessionNotification } from '../../acp';
import type { LoginShellEnvironmentCache } from '../../agents';
import type { BackendSessionSnapshot, BackendSessionView, ChatBackend, TerminalOutputEvent, TranscriptOpsEvent } from '../../chat/chatBackend';
import type { AgentView, ElicitationAnswer, HistoryItem, TerminalSnapshot } from '../../shared/chatState';
import type { ComposerPrompt, PermissionAnswer } from '../../shared/messages';
import type { AgentSecrets } from '../auth/agentSecrets';
import { AgentSignIn, type RetryAfterSignIn } from '../auth/agentSignIn';
import type { AuthUi } from '../auth/authFlow';
import type { DiffReview } from '../diff';
import type { FsBridge } from '../fs/fsBridge';
import type { LogChannels } from '../log/logChannels';
import type { ProtocolLog } from '../log/protocolLog';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { TerminalBridge } from '../terminal/terminalBridge';
import type { AgentConfiguration } from './agentConfiguration';
import { agentRequestHandlers } from './agentRequests';
import type { AgentRuntime } from './agentRuntime';
import { AgentRuntimes } from './agentRuntimes';
import { SessionHistory } from './sessionHistory';
import { Session, scopedSessionId, type SessionHost } from './session';
import { SessionDiffs } from './sessionDiffs';
import { forkedTranscript } from './forkTranscript';
import { SessionRegistry } from './sessionRegistry';
import { SessionTabs } from './sessionTabs';
import type { AgentStatusBar } from './statusBar';
import type { TranscriptStore } from './transcriptStore';
import { TurnFiles } from './turnFiles';
import { agentView, sessionView } from './views';

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

export class SessionBackend implements ChatBackend, SessionHost, vscode.Disposable {
  private readonly terminalIds = new Set<string>();
  /** Who each agent last said it is signed in as. */
  private readonly accounts = new Map<string, AgentAuthStatus>();
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
  /** The open sessions; the editor bridges ask it about sessions by agent-qualified id. */
  readonly sessions = new SessionRegistry();
  readonly log: vscode.LogOutputChannel;
  readonly turnFiles: TurnFiles;
  private readonly runtimes: AgentRuntimes;
  private readonly signIn: AgentSignIn;
  private readonly history: SessionHistory;
  private readonly tabs: SessionTabs;
  private readonly diffs: SessionDiffs;

  constructor(private readonly o: SessionBackendOptions) {
    this.log = o.logs.main;
    this.turnFiles = new TurnFiles(o.diffReview, o.fs, o.logs.main);
    this.runtimes = new AgentRuntimes({
      ...o,
      cwd: () => this.workspaceCwd(),
      handlers: (name) => agentRequestHandlers(name, { ...o, log: o.logs.main, turnFiles: this.turnFiles, sessionOf: (id) => this.sessions.scoped(id) }),
      onUpdate: (name, n) => this.onUpdate(name, n),
      onAuthStatus: (name, status) => {
        this.accounts.set(name, status);
        agentsChanged.fire();
      },
      onCrash: (runtime) => this.onAgentCrash(runtime),
    });
    const agentsChanged = new vscode.EventEmitter<void>();
    this.signIn = new AgentSignIn({ secrets: o.secrets, info: (m) => o.logs.main.info(m), agentsChanged: () => agentsChanged.fire() });
    this.onDidChangeAgents = (listener, thisArg, disposables) => {
      const a = this.runtimes.onDidChange(listener, thisArg);
      const b = agentsChanged.event(listener, thisArg);
      const both = { dispose: () => (a.dispose(), b.dispose()) };
      disposables?.push(both);
      return both;
    };
    this.history = new SessionHistory({ store: o.store, warn: (m) => o.logs.main.warn(m), changed: (e) => this.historyEmitter.fire(e) });
    this.tabs = new SessionTabs(o.store, o.logs.main);
    this.diffs = new SessionDiffs(o.diffReview, o.permissions);
    this.disposables.push(
      this.runtimes,
      agentsChanged,
      this.sessionEmitter,
      this.closeEmitter,
      this.activeEmitter,
      this.opsEmitter,
      this.historyEmitter,
      this.terminalEmitter,
      o.configuration.onDidChange(() => this.runtimes.update(o.configuration.snapshot.agents)),
      o.permissions.onDidRequest((p) => this.fireSessionByScopedId(p.sessionId)),
      o.permissions.onDidResolve((d) => {
        const session = this.sessions.scoped(d.prompt.sessionId);
        if (d.via === 'auto' && d.autoApproved) session?.noteAutoApproval(d.prompt.toolCall.title ?? undefined, d.autoApproved.description);
        this.fireSessionByScopedId(d.prompt.sessionId);
      }),
      o.elicitations.onDidRequest((p) => p.sessionId && this.fireSessionByScopedId(p.sessionId)),
      o.elicitations.onDidResolve((d) => d.prompt.sessionId && this.fireSessionByScopedId(d.prompt.sessionId)),
      o.diffReview.onDidChangeChangedFiles(() => this.sessions.values().forEach((s) => this.fireSession(s))),
      o.terminals.onDidOutput((e) => this.terminalOutput({ terminalId: e.terminalId, data: e.text })),
      o.terminals.onDidExit((e) => this.terminalOutput({ terminalId: e.terminalId, data: '', exitStatus: e.exitStatus })),
      o.terminals.onDidChangeOpen((e) => this.terminalOutput({ terminalId: e.terminalId, data: '', open: e.open })),
    );
  }

  // ---- what the chat reads on every handshake

  getAgents(): AgentView[] {
    return this.o.configuration.snapshot.agents.map((a) =>
      agentView(
        a.name,
        this.runtimes.get(a.name),
        { flows: this.signIn.flowsOf(a.name), error: this.signIn.failureOf(a.name), retry: this.signIn.retryOf(a.name) },
        a.icon,
        this.accounts.get(a.name),
      ),
    );
  }

  getDefaultAgentId(): string | undefined {
    const snapshot = this.o.configuration.snapshot;
    if (snapshot.defaultAgent && snapshot.agents.some((a) => a.name === snapshot.defaultAgent)) return snapshot.defaultAgent;
    // Prefer an agent the user configured over the built-in presets.
    return snapshot.agents.find((a) => a.source === 'settings')?.name ?? snapshot.agents[0]?.name;
  }

  getSessions(): BackendSessionSnapshot[] {
    return [...this.sessions.values()].map((s) => ({ view: this.viewOf(s), transcript: s.transcript }));
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

  // ---- sessions

  /** `afterSignIn`: when the agent first needs sign-in, runs with the session it opens once signed in. */
  async newSession(agentId?: string, afterSignIn?: (sessionId: string) => void): Promise<string> {
    const name = agentId ?? this.getDefaultAgentId();
    if (!name) throw new Error('No agent is configured. Add one to switchboard.agents.');
    const definition = this.definitionOf(name);
    const runtime = this.runtimes.for(definition);
    const connection = await runtime.start();
    const cwd = this.workspaceCwd();
    const additionalDirectories = this.additionalDirectories(cwd);
    const result = await this.withAuth(name, () => connection.newSession({ cwd, additionalDirectories, mcpServers: this.o.mcpServers() }), {
      run: async () => {
        // Not `afterSignIn?.(await …)`: an optional call skips evaluating its argument.
        const opened = await this.newSession(name);
        afterSignIn?.(opened);
      },
      what: afterSignIn ? 'starts a session and sends your message' : 'starts the session',
    });
    const session = this.add(new Session(this, randomUUID(), name, result.sessionId, cwd, additionalDirectories), runtime);
    session.applySetup(result);
    await session.applyDefaults(definition, result);
    this.o.statusBar.show(name, 'ready');
    return session.key;
  }

  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    session.cancel();
    session.detach();
    await this.tabs.save(session);
    const connection = this.runtimes.get(session.agentId)?.connection;
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

  async openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void> {
    if (historyId.startsWith('local:')) return this.openLocal(historyId.slice('local:'.length));
    const item = this.history.agentEntry(historyId);
    if (!item) throw new Error('That history entry is gone.');
    const runtime = this.runtimes.for(this.definitionOf(item.agentId));
    const connection = await runtime.start();
    const cwd = item.cwd ?? this.workspaceCwd();
    const session = new Session(this, randomUUID(), item.agentId, item.sessionId, cwd, this.additionalDirectories(cwd));
    session.loading = true;
    this.add(session, runtime);
    try {
      const params = { cwd, additionalDirectories: session.additionalDirectories, mcpServers: this.o.mcpServers() };
      session.applySetup(
        await this.withAuth(item.agentId, () => (mode === 'resume' ? connection.resumeSession(item.sessionId, params) : connection.loadSession(item.sessionId, params))),
      );
      session.setLoading(false);
    } catch (error) {
      session.setLoading(false, { message: `Could not ${mode} the session: ${errorMessage(error)}` });
    }
  }

  /** A transcript saved by Switchboard, not bound to a live agent session yet: the first prompt loads it. */
  private async openLocal(key: string): Promise<void> {
    if (this.sessions.has(key)) return this.setActive(key);
    const saved = await this.tabs.load(key);
    const session = new Session(this, key, saved.meta.agentId, saved.meta.acpSessionId, saved.meta.cwd, this.additionalDirectories(saved.meta.cwd), saved.transcript);
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

  selectSession(sessionId: string): void {
    if (this.sessions.has(sessionId)) this.setActive(sessionId);
  }

  async sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void> {
    const session = this.sessions.require(sessionId);
    // A new message replaces one that was waiting for sign-in in this session: only the latest is sent.
    this.signIn.dropRetry(session.agentId, sessionId);
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

  /**
   * session/fork, opened as a new tab. `fromItemId` (a user message): the tab shows the transcript up to
   * that message's turn; the agent's fork has the whole session (the protocol has no fork point). A failure
   * (e.g. -32002, the agent no longer has the session) keeps the original tab and says why in its banner.
   */
  async forkSession(sessionId: string, fromItemId?: string): Promise<string | undefined> {
    const source = this.sessions.require(sessionId);
    try {
      const runtime = this.runtimes.for(this.definitionOf(source.agentId));
      const connection = await this.connect(source);
      const params = { cwd: source.cwd, additionalDirectories: source.additionalDirectories, mcpServers: this.o.mcpServers() };
      const result = await this.withAuth(source.agentId, () => connection.forkSession(source.acpSessionId, params));
      const { transcript, notice } = forkedTranscript(source.transcript, source.title, result.sessionId, fromItemId);
      const fork = this.add(new Session(this, randomUUID(), source.agentId, result.sessionId, source.cwd, source.additionalDirectories, transcript), runtime);
      fork.applySetup(result);
      fork.note(notice.title, notice.description);
      await this.tabs.save(fork);
      this.tabs.persist(this.sessions.values(), this.sessions.activeKey);
      return fork.key;
    } catch (error) {
      const gone = error instanceof NotFoundError ? ` ${source.agentId} no longer has this session.` : '';
      this.log.warn(`session/fork of ${source.acpSessionId} failed: ${errorMessage(error)}`);
      source.setLoading(false, { message: `Could not fork the session.${gone}`, detail: errorMessage(error) });
      return undefined;
    }
  }

  /** Rename: trimmed, at most MAX_TITLE characters; a bad title is said in the session's banner. */
  async renameSession(sessionId: string, title: string): Promise<void> {
    const session = this.sessions.require(sessionId);
    const trimmed = title.trim().replace(/\s+/g, ' ');
    if (!trimmed) return session.setLoading(false, { message: 'A session title cannot be empty.' });
    if (trimmed.length > MAX_TITLE) return session.setLoading(false, { message: `A session title can have at most ${MAX_TITLE} characters; this one has ${trimmed.length}.` });
    try {
      await session.rename(trimmed);
    } catch (error) {
      session.setLoading(false, { message: `Could not rename the session: ${errorMessage(error)}` });
      return;
    }
    await this.tabs.save(session);
    this.tabs.persist(this.sessions.values(), this.sessions.activeKey);
    this.historyEmitter.fire({});
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

  /** A new session joins the registry, becomes the active tab and reaches the chat. */
  private add(session: Session, runtime?: AgentRuntime): Session {
    if (runtime) this.bind(session, session.acpSessionId, runtime);
    this.sessions.add(session);
    session.onDidApplyOps((ops) => this.opsEmitter.fire({ sessionId: session.key, ops }));
    session.onDidChange(() => this.fireSession(session));
    this.setActive(session.key);
    this.fireSession(session);
    return session;
  }

  // ---- SessionHost: what a session needs from the registry

  /** Binds a detached session again: session/load when the agent can (the replay is skipped), else a new session. */
  async connect(session: Session): Promise<AcpClientConnection> {
    const runtime = this.runtimes.for(this.definitionOf(session.agentId));
    const connection = await runtime.start();
    if (!session.detached) return connection;
    const params = { cwd: session.cwd, additionalDirectories: session.additionalDirectories, mcpServers: this.o.mcpServers() };
    if (connection.agent?.agentCapabilities.loadSession) {
      session.suppressReplay = true;
      try {
        session.applySetup(await this.withAuth(session.agentId, () => connection.loadSession(session.acpSessionId, params)));
        this.bind(session, session.acpSessionId, runtime);
        return connection;
      } catch (error) {
        this.log.warn(`Could not load session ${session.acpSessionId} again: ${errorMessage(error)}; starting a new one`);
      } finally {
        session.suppressReplay = false;
      }
    }
    const result = await this.withAuth(session.agentId, () => connection.newSession(params));
    session.applySetup(result);
    session.recordError(`${session.agentId} started a new session: it does not remember the messages above.`);
    this.bind(session, result.sessionId, runtime);
    return connection;
  }

  withAuth<T>(agentId: string, request: () => Promise<T>, retry?: RetryAfterSignIn): Promise<T> {
    return this.signIn.run(this.runtimes.get(agentId), agentId, request, retry);
  }

  agentCrashed(agentId: string): boolean {
    return this.runtimes.get(agentId)?.status === 'crashed';
  }

  offerRestart(agentId: string): void {
    void vscode.window
      .showWarningMessage(`${agentId} did not stop when asked. Restart it?`, 'Restart Agent')
      .then((choice) => choice && this.restartAgent(agentId));
  }

  cancelRequests(scopedId: string): void {
    this.o.permissions.cancelAll(scopedId);
    this.o.elicitations.cancelAll(scopedId);
  }

  disposeTerminals(scopedId: string): void {
    this.o.terminals.disposeSession(scopedId);
  }

  turnChanged(session: Session): void {
    const running = session.turn !== 'idle';
    this.o.statusBar.show(session.agentId, running ? 'working' : this.agentCrashed(session.agentId) ? 'crashed' : 'ready');
    if (!running) void this.tabs.save(session).then(() => this.tabs.persist(this.sessions.values(), this.sessions.activeKey));
  }

  // ---- agents

  async restartAgent(agentId: string): Promise<void> {
    const runtime = this.runtimes.for(this.definitionOf(agentId));
    for (const session of this.sessions.ofAgent(agentId)) session.detach();
    await runtime.restart();
    this.o.statusBar.show(agentId, 'ready');
  }

  async authenticate(agentId: string, methodId: string): Promise<void> {
    const runtime = this.runtimes.get(agentId);
    if (!runtime) throw new Error(`${agentId} did not offer the sign-in method "${methodId}".`);
    await this.signIn.authenticate(runtime, methodId, {
      cwd: this.workspaceCwd(),
      restart: async () => {
        for (const session of this.sessions.ofAgent(agentId)) session.detach();
        await runtime.restart();
      },
    });
  }

  /** Sign-in prompts (replaceable in tests). */
  get authUi(): AuthUi {
    return this.signIn.ui;
  }

  set authUi(ui: AuthUi) {
    this.signIn.ui = ui;
  }

  /** Logs out where the agent supports it, and forgets the secrets Switchboard kept for it. */
  async logout(agentId: string): Promise<void> {
    const connection = this.runtimes.get(agentId)?.connection;
    if (connection?.agent?.agentCapabilities.auth.logout) await connection.logout();
    await this.o.secrets.clear(agentId);
  }

  async refreshHistory(): Promise<void> {
    await this.history.refresh(this.runtimes.values(), this.workspaceCwd());
  }

  async deleteHistory(historyId: string): Promise<void> {
    await this.history.delete(historyId, (agentId) => this.runtimes.get(agentId));
  }

  private onUpdate(agentName: string, notification: SessionNotification): void {
    const session = this.sessions.scoped(scopedSessionId(agentName, notification.sessionId));
    if (session) session.receive(notification.update);
    else this.log.debug(`session/update for unknown session ${notification.sessionId}`);
  }

  /** Transcripts stay; the turn ends; pending requests are answered cancelled; terminals die with the agent. */
  private onAgentCrash(runtime: AgentRuntime): void {
    const crash = { message: runtime.crash?.message ?? `${runtime.name} stopped unexpectedly.`, detail: runtime.crash?.stderrTail.slice(-10).join('\n') };
    for (const session of this.sessions.ofAgent(runtime.name)) session.detach(crash);
    const tail = runtime.crash?.stderrTail.slice(-3).join('\n');
    void vscode.window.showErrorMessage(`${crash.message}${tail ? `\n${tail}` : ''}`, 'Restart Agent', 'Show Log').then((choice) => {
      if (choice === 'Restart Agent') void this.restartAgent(runtime.name).catch((e: unknown) => void vscode.window.showErrorMessage(errorMessage(e)));
      if (choice === 'Show Log') this.o.logs.agent(runtime.name).show(true);
    });
  }

  private bind(session: Session, acpSessionId: string, runtime: AgentRuntime): void {
    this.sessions.reindex(session, () => session.bind(acpSessionId, runtime.agentInfo));
  }

  private definitionOf(name: string) {
    const definition = this.o.configuration.find(name);
    if (!definition) throw new Error(`There is no agent named "${name}" in switchboard.agents or the built-in presets.`);
    return definition;
  }

  // ---- helpers

  private viewOf(session: Session): BackendSessionView {
    return sessionView(session, this.o);
  }

  private terminalOutput(e: TerminalOutputEvent): void {
    this.terminalIds.add(e.terminalId);
    this.terminalEmitter.fire(e);
  }

  /** The session's folder: the first workspace folder (agents get the others as additionalDirectories). */
  workspaceCwd(): string {
    return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
  }

  private additionalDirectories(cwd: string): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file' && f.uri.fsPath !== cwd).map((f) => f.uri.fsPath);
  }

  private setActive(key: string | undefined): void {
    this.sessions.activeKey = key;
    this.updateTurnContext();
    this.activeEmitter.fire(key);
  }

  private fireSession(session: Session): void {
    if (!this.sessions.isOpen(session)) return;
    if (session.key === this.sessions.activeKey) this.updateTurnContext();
    this.sessionEmitter.fire(this.viewOf(session));
  }

  private updateTurnContext(): void {
    void vscode.commands.executeCommand('setContext', 'switchboard.turnRunning', (this.sessions.active?.turn ?? 'idle') !== 'idle');
  }

  private fireSessionByScopedId(scopedId: string): void {
    const session = this.sessions.scoped(scopedId);
    if (session) this.fireSession(session);
  }

  /** Saves every open transcript (window closing). */
  async saveAll(): Promise<void> {
    await Promise.all(this.sessions.values().map((s) => this.tabs.save(s)));
  }

  async dispose(): Promise<void> {
    await this.saveAll().catch(() => undefined);
    this.o.permissions.cancelAllPending();
    this.o.elicitations.cancelAllPending();
    await this.runtimes.stopAll();
    for (const s of this.sessions.values()) s.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
