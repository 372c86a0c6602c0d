// The chat's backend: where the ports the chat talks to are built and wired. Each port is the object that
// does the work: SessionRegistry (the open sessions and what the chat hears of them), SessionLifecycle
// (open, fork, rename, close), AgentControl (runtimes, sign-in, crashes) and its providers, SessionHistory,
// SessionTerminals, SessionFiles (diffs, changed and plan files), Checkpoints, RequestCards (permission and
// elicitation answers) and SessionMentions. Each Session owns its record, transcript and turn;
// SessionConnector is what a session needs around it; agent requests go to the editor bridges
// (agentRequests.ts), and session/update notifications to their session.
import * as vscode from 'vscode';
import { type McpServer, type SessionNotification } from '../../acp';
import type { LoginShellEnvironmentCache } from '../../agents';
import type { ChatBackend } from '../../chat/chatBackend';
import type { AgentSecrets } from '../auth/agentSecrets';
import type { DiffReview } from '../diff';
import type { FsBridge } from '../fs/fsBridge';
import type { IdeTools } from '../ideTools/ideTools';
import type { SessionInstructions } from './turn/instructions';
import type { LogChannels } from '../log/logChannels';
import type { MentionSources } from '../mentions/mentionSources';
import type { ProtocolLog } from '../log/protocolLog';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { TerminalBridge } from '../terminal/terminalBridge';
import type { AgentConfiguration } from '../agents/configuration/agentConfiguration';
import { AgentControl } from '../agents/agentControl';
import type { AgentProviders } from '../agents/configuration/providers';
import { ActiveAgentStatus } from './activeAgentStatus';
import { agentRequestHandlers } from './agentRequests';
import { deliverUpdate, strangerHost } from './childSessions';
import { Checkpoints } from './checkpoints/checkpoints';
import { RequestCards } from './requestCards';
import { SessionConnector } from './sessionConnector';
import { SessionFiles } from './sessionFiles';
import { SessionHistory } from './tabs/sessionHistory';
import { SessionLifecycle } from './tabs/sessionLifecycle';
import { SessionMentions } from './turn/sessionMentions';
import { SessionRegistry } from './tabs/sessionRegistry';
import { SessionTabs } from './tabs/sessionTabs';
import { SessionTerminals } from './sessionTerminals';
import { onEnterWhileRunningChange } from './turn/enterWhileRunning';
import type { AgentStatusBar } from '../agents/statusBar';
import type { TranscriptStore } from './tabs/transcriptStore';
import { TurnFiles } from './turn/turnFiles';
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
  readonly sessions: SessionRegistry;
  readonly lifecycle: SessionLifecycle;
  /** The agents: runtimes, sign-in (its prompts replaceable in tests), crashes. */
  readonly agents: AgentControl;
  readonly providers: AgentProviders;
  readonly history: SessionHistory;
  readonly terminals: SessionTerminals;
  readonly files: SessionFiles;
  readonly checkpoints: Checkpoints;
  readonly requests: RequestCards;
  readonly mentions: SessionMentions;
  private readonly log: vscode.LogOutputChannel;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(options: SessionBackendOptions) {
    const log = (this.log = options.logs.main);
    const sessions = (this.sessions = new SessionRegistry(options));
    const turnFiles = new TurnFiles(options.diffReview, options.fs, log);
    this.agents = new AgentControl({
      ...options,
      cwd: workspaceCwd,
      handlers: (name) => agentRequestHandlers(name, { ...options, log, turnFiles, sessionOf: (id) => sessions.scoped(id), strangerHost: (agent) => strangerHost(sessions, agent) }),
      onUpdate: (name, n) => this.onUpdate(name, n),
      onElicitationComplete: (name, id) => options.elicitations.complete(id) || log.info(`[${name}] elicitation/complete for ${id}, which is not pending: ignored`),
    });
    this.providers = this.agents.providers;
    this.disposables.push(this.agents.onDidEndProcess(({ agentId, crash }) => sessions.ofAgent(agentId).forEach((s) => s.detach(crash))));
    const tabs = new SessionTabs(options.store, log);
    this.requests = new RequestCards(options.permissions, options.elicitations, log);
    this.checkpoints = new Checkpoints({ diffReview: options.diffReview, store: options.store, turnFiles, log, sessions });
    const host = new SessionConnector({ ...options, log, turnFiles, checkpoints: this.checkpoints, agents: this.agents, sessions, tabs, cards: this.requests });
    this.history = new SessionHistory({ store: options.store, sessions, agents: this.agents, log });
    this.lifecycle = new SessionLifecycle({ ...options, log, agents: this.agents, host, sessions, tabs, history: this.history });
    this.files = new SessionFiles(options.diffReview, options.permissions, options.fs, sessions);
    this.terminals = new SessionTerminals(options.terminals, sessions, log);
    this.mentions = new SessionMentions(options.mentions, sessions, options.store);
    const status = new ActiveAgentStatus(sessions, this.agents, options.statusBar, [sessions.onDidChangeActiveSession, sessions.onDidChangeSession, sessions.onDidCloseSession, this.agents.onDidChange]);
    this.disposables.push(
      status,
      this.agents,
      sessions,
      this.history,
      this.terminals,
      ...this.requests.watch(sessions, (scopedId) => {
        const session = scopedId === undefined ? undefined : sessions.scoped(scopedId);
        if (session) sessions.changed(session);
      }),
      options.diffReview.onDidChangeChangedFiles(() => sessions.values().forEach((s) => sessions.changed(s))),
      onEnterWhileRunningChange(() => sessions.values().forEach((s) => sessions.changed(s))),
    );
  }

  private onUpdate(agentName: string, notification: SessionNotification): void {
    deliverUpdate(this.sessions, agentName, notification, this.log);
  }

  /** Saves every open transcript, ends what is pending and stops the agents (window closing). */
  async dispose(): Promise<void> {
    await this.lifecycle.saveAll().catch(() => undefined);
    this.requests.cancelAll();
    await this.agents.stopAll();
    for (const s of this.sessions.values()) s.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
