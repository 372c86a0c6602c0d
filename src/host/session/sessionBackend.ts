// The chat's backend: the registry and router of sessions. Each Session owns its record, transcript and turn;
// AgentControl owns the agents (runtimes, sign-in, crashes); SessionConnector is what a session needs around
// it; SessionLifecycle opens, forks, renames and closes them; ChatEvents is what the chat hears; agent
// requests go to the editor bridges (agentRequests.ts); history, terminals, cards and diffs have modules.
import * as vscode from 'vscode';
import { type McpServer, type SessionNotification } from '../../acp';
import type { LoginShellEnvironmentCache } from '../../agents';
import type { BackendSessionSnapshot, BackendSessionView, ChatBackend, SteerAnswer, TerminalOutputEvent, TranscriptOpsEvent } from '../../chat/chatBackend';
import { queryMentionCandidates } from '../../chat/hostUi';
import type { AgentView, ElicitationAnswer, HistoryItem, MentionCandidate, ProviderAction, TerminalSnapshot } from '../../shared/chatState';
import type { CheckpointAction, CheckpointView } from '../../shared/checkpoints';
import type { ComposerPrompt, PermissionAnswer } from '../../shared/messages';
import type { AgentSecrets } from '../auth/agentSecrets';
import type { DiffReview } from '../diff';
import type { FsBridge } from '../fs/fsBridge';
import type { IdeTools } from '../ideTools/ideTools';
import type { SessionInstructions } from './instructions';
import type { LogChannels } from '../log/logChannels';
import type { MentionSources } from '../mentions/mentionSources';
import type { ProtocolLog } from '../log/protocolLog';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { TerminalBridge } from '../terminal/terminalBridge';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import { AgentControl } from '../agents/agentControl';
import { ActiveAgentStatus } from './activeAgentStatus';
import { ChatEvents } from './chatEvents';
import { agentRequestHandlers } from './agentRequests';
import { Checkpoints } from './checkpoints';
import { openPlanFile } from './planFiles';
import { RequestCards } from './requestCards';
import { scopedSessionId } from './session';
import { SessionConnector } from './sessionConnector';
import { SessionDiffs } from './sessionDiffs';
import { SessionHistory } from './sessionHistory';
import { SessionLifecycle } from './sessionLifecycle';
import { SessionRegistry } from './sessionRegistry';
import { SessionTabs } from './sessionTabs';
import { SessionTerminals } from './sessionTerminals';
import { onEnterWhileRunningChange } from './enterWhileRunning';
import type { AgentStatusBar } from '../agents/statusBar';
import type { TranscriptStore } from './transcriptStore';
import { TurnFiles } from './turnFiles';
import { sessionView } from './views';
import { workspaceCwd } from './workspaceFolders';

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
  mcpServers(): Promise<McpServer[]>;
  /** The `switchboard` MCP server each session gets. */
  ideTools: IdeTools;
  /** The `@` groups beyond files, and the reading of mentions when a message is sent. */
  mentions: MentionSources;
  /** Standing instructions, sent as systemPrompt. */
  instructions: SessionInstructions;
}

export class SessionBackend implements ChatBackend, vscode.Disposable {
  /** The open sessions; the editor bridges ask it about sessions by agent-qualified id. */
  readonly sessions = new SessionRegistry();
  private readonly log: vscode.LogOutputChannel;
  /** The agents: runtimes, sign-in (its prompts replaceable in tests), crashes. */
  readonly agents: AgentControl;
  private readonly host: SessionConnector;
  private readonly history: SessionHistory;
  private readonly lifecycle: SessionLifecycle;
  private readonly diffs: SessionDiffs;
  private readonly cards: RequestCards;
  private readonly terminals: SessionTerminals;
  private readonly checkpoints: Checkpoints;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly events: ChatEvents;
  readonly onDidChangeSession: vscode.Event<BackendSessionView>;
  readonly onDidCloseSession: vscode.Event<string>;
  readonly onDidChangeActiveSession: vscode.Event<string | undefined>;
  readonly onDidApplyOps: vscode.Event<TranscriptOpsEvent>;
  readonly onDidChangeHistory: vscode.Event<{ loading?: boolean }>;
  readonly onDidRefusePrompt: vscode.Event<{ sessionId: string; prompt: ComposerPrompt }>;
  readonly onDidTerminalOutput: vscode.Event<TerminalOutputEvent>;
  readonly onDidChangeAgents: vscode.Event<void>;

  constructor(private readonly o: SessionBackendOptions) {
    this.log = o.logs.main;
    const events = (this.events = new ChatEvents(this.sessions, o));
    this.onDidChangeSession = events.onDidChangeSession;
    this.onDidCloseSession = events.onDidCloseSession;
    this.onDidChangeActiveSession = events.onDidChangeActiveSession;
    this.onDidApplyOps = events.onDidApplyOps;
    this.onDidChangeHistory = events.onDidChangeHistory;
    this.onDidRefusePrompt = events.onDidRefusePrompt;
    const turnFiles = new TurnFiles(o.diffReview, o.fs, o.logs.main);
    this.agents = new AgentControl({
      ...o,
      cwd: workspaceCwd,
      handlers: (name) => agentRequestHandlers(name, { ...o, log: o.logs.main, turnFiles, sessionOf: (id) => this.sessions.scoped(id) }),
      onUpdate: (name, n) => this.onUpdate(name, n),
      onElicitationComplete: (name, id) => o.elicitations.complete(id) || this.log.info(`[${name}] elicitation/complete for ${id}, which is not pending: ignored`),
    });
    this.disposables.push(this.agents.onDidEndProcess(({ agentId, crash }) => this.sessions.ofAgent(agentId).forEach((s) => s.detach(crash))));
    this.onDidChangeAgents = this.agents.onDidChange;
    const tabs = new SessionTabs(o.store, o.logs.main);
    this.cards = new RequestCards(o.permissions, o.elicitations, o.logs.main);
    this.checkpoints = new Checkpoints({ diffReview: o.diffReview, store: o.store, turnFiles, log: o.logs.main });
    this.host = new SessionConnector({ ...o, log: o.logs.main, turnFiles, checkpoints: this.checkpoints, agents: this.agents, sessions: this.sessions, tabs, cards: this.cards });
    this.history = new SessionHistory({ store: o.store, warn: (m) => o.logs.main.warn(m), changed: (e) => events.historyChanged(e) });
    this.lifecycle = new SessionLifecycle({
      ...o,
      log: o.logs.main,
      agents: this.agents,
      host: this.host,
      sessions: this.sessions,
      tabs,
      history: this.history,
      added: (session) => events.added(session),
      select: (key) => events.setActive(key),
      closed: (key) => events.closed(key),
      historyChanged: () => events.historyChanged(),
    });
    this.diffs = new SessionDiffs(o.diffReview, o.permissions);
    this.terminals = new SessionTerminals(o.terminals, o.logs.main);
    this.onDidTerminalOutput = this.terminals.onDidOutput;
    const status = new ActiveAgentStatus(this.sessions, this.agents, o.statusBar, [events.onDidChangeActiveSession, events.onDidChangeSession, events.onDidCloseSession, this.agents.onDidChange]);
    this.disposables.push(
      status,
      this.agents,
      events,
      this.terminals,
      ...this.cards.watch(this.sessions, (scopedId) => {
        const session = scopedId === undefined ? undefined : this.sessions.scoped(scopedId);
        if (session) events.sessionChanged(session);
      }),
      o.diffReview.onDidChangeChangedFiles(() => this.sessions.values().forEach((s) => events.sessionChanged(s))),
      onEnterWhileRunningChange(() => this.sessions.values().forEach((s) => events.sessionChanged(s))),
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
    return this.terminals.snapshots();
  }

  // ---- opening and closing sessions

  /** `afterSignIn`: when the agent first needs sign-in, runs with the session it opens once signed in. */
  newSession(agentId?: string, afterSignIn?: (sessionId: string) => void): Promise<string> {
    const name = agentId ?? this.getDefaultAgentId();
    if (!name) throw new Error('No agent is configured. Add one to switchboard.agents.');
    return this.lifecycle.create(name, afterSignIn);
  }

  openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void> {
    return this.lifecycle.openHistory(historyId, mode);
  }

  /** Reopens the tabs that were open before a window reload, from the local transcript store. */
  async restoreOpenTabs(): Promise<void> {
    const active = await this.lifecycle.restoreOpenTabs();
    if (active) this.events.setActive(active);
  }

  forkSession(sessionId: string, fromItemId?: string): Promise<string | undefined> {
    return this.lifecycle.fork(this.sessions.require(sessionId), fromItemId);
  }

  renameSession(sessionId: string, title: string): Promise<void> {
    return this.lifecycle.rename(this.sessions.require(sessionId), title);
  }

  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    await this.lifecycle.close(session);
    this.checkpoints.forget(sessionId);
  }

  // ---- what the chat does to a session

  selectSession(sessionId: string): void {
    if (this.sessions.has(sessionId)) this.events.setActive(sessionId);
  }

  async sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void> {
    const session = this.sessions.require(sessionId);
    // A new message replaces one that was waiting for sign-in in this session: only the latest is sent.
    this.agents.dropRetry(session.agentId, sessionId);
    return session.prompt(prompt, { shownAlready: false });
  }

  steer(sessionId: string, prompt: ComposerPrompt): Promise<SteerAnswer> {
    return this.sessions.require(sessionId).steer(prompt);
  }

  /** Files, folders and open editors (the chat's own list), then the context groups. */
  async queryMentions(query: string, sessionId: string | undefined): Promise<MentionCandidate[]> {
    const { sessionTranscripts } = await import('./sessionTranscripts');
    const [files, context] = await Promise.all([queryMentionCandidates(query), this.o.mentions.query(query, sessionTranscripts(this.sessions, this.o.store), sessionId)]);
    return [...files, ...context];
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

  failedPrompt(sessionId: string): ComposerPrompt | undefined {
    return this.sessions.get(sessionId)?.failedPrompt;
  }

  answerPermission(_sessionId: string, requestId: string, answer: PermissionAnswer): void {
    this.cards.answerPermission(requestId, answer);
  }

  answerElicitation(_sessionId: string, requestId: string, answer: ElicitationAnswer): void {
    this.cards.answerElicitation(requestId, answer);
  }

  openDiff(sessionId: string, toolCallId: string, path: string): Promise<void> {
    return this.diffs.open(this.sessions.get(sessionId), toolCallId, path);
  }

  openPlanFile(sessionId: string, planId: string): Promise<void> {
    return openPlanFile(this.sessions.require(sessionId), planId, this.o.fs);
  }

  async openTerminal(sessionId: string, terminalId: string): Promise<void> {
    this.terminals.reveal(this.sessions.get(sessionId)?.scopedId, terminalId);
  }

  changedFileAction(sessionId: string, key: string, action: 'open' | 'keep' | 'undo'): Promise<void> {
    return this.diffs.fileAction(this.sessions.require(sessionId), key, action);
  }

  changedFilesAll(sessionId: string, action: 'keep' | 'undo'): Promise<void> {
    return this.diffs.all(this.sessions.require(sessionId), action);
  }

  checkpoint(sessionId: string, itemId: string, action: CheckpointAction): Promise<CheckpointView> {
    return this.checkpoints.act(this.sessions.require(sessionId), itemId, action);
  }

  // ---- agents and history

  async restartAgent(agentId: string): Promise<void> {
    await this.agents.restart(agentId);
  }

  authenticate(agentId: string, methodId: string): Promise<void> {
    return this.agents.authenticate(agentId, methodId, workspaceCwd());
  }

  logout(agentId: string): Promise<void> {
    return this.agents.logout(agentId);
  }

  providerAction(agentId: string, action: ProviderAction): Promise<void> {
    return this.agents.providers.run(agentId, action);
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

  /** Saves every open transcript (window closing). */
  async saveAll(): Promise<void> {
    await this.lifecycle.saveAll();
  }

  async dispose(): Promise<void> {
    await this.saveAll().catch(() => undefined);
    this.cards.cancelAll();
    await this.agents.stopAll();
    for (const s of this.sessions.values()) s.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
