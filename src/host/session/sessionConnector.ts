// What a Session needs from the layer around it (SessionHost): its agent's live connection (binding the
// session again after the agent restarted), sign-in, the bridges' pending requests and terminals, and
// what the end of a turn updates (the saved transcript).
import * as vscode from 'vscode';
import { errorMessage, type AcpClientConnection, type McpServer } from '../../acp';
import type { IdeTools } from '../ideTools/ideTools';
import type { MentionSources } from '../mentions/mentionSources';
import type { TerminalBridge } from '../terminal/terminalBridge';
import type { AgentControl } from '../agents/agentControl';
import type { AgentRuntime } from '../agents/agentRuntime';
import type { Checkpoints } from './checkpoints/checkpoints';
import type { RequestCards } from './requestCards';
import type { Session } from './session';
import type { SessionHost } from './sessionHost';
import type { SessionRegistry } from './tabs/sessionRegistry';
import type { SessionTabs } from './tabs/sessionTabs';
import type { PromptSources } from './turn/promptBuilder';
import type { TranscriptStore } from './tabs/transcriptStore';
import type { TurnFiles } from './turn/turnFiles';
import { instructionsView, type SessionInstructions } from './turn/instructions';

/** How a detached session is bound again, best first: resume sends no replay to download, parse and discard. */
const REBIND_METHODS = ['session/resume', 'session/load'] as const;

export interface SessionConnectorOptions {
  log: vscode.LogOutputChannel;
  turnFiles: TurnFiles;
  checkpoints: Checkpoints;
  agents: AgentControl;
  sessions: SessionRegistry;
  tabs: SessionTabs;
  /** Where pending permission and elicitation requests are cancelled. */
  cards: RequestCards;
  terminals: TerminalBridge;
  mcpServers(): Promise<McpServer[]>;
  /** The `switchboard` MCP server each session gets (the IDE tools). */
  ideTools: IdeTools;
  mentions: MentionSources;
  store: TranscriptStore;
  /** The user's standing instructions, sent as systemPrompt. */
  instructions: SessionInstructions;
}

export class SessionConnector implements SessionHost {
  readonly log: vscode.LogOutputChannel;
  readonly turnFiles: TurnFiles;
  readonly checkpoints: Checkpoints;

  constructor(private readonly deps: SessionConnectorOptions) {
    this.log = deps.log;
    this.turnFiles = deps.turnFiles;
    this.checkpoints = deps.checkpoints;
  }

  /**
   * The folders and MCP servers a session/new, load, resume or fork passes for the session of `key` (a fork:
   * the new session's key), with its IDE tools: over HTTP where the agent announces it, else over stdio.
   */
  async paramsOf(session: { key: string; agentId: string; cwd: string; additionalDirectories: string[] }) {
    const capabilities = this.deps.agents.runtime(session.agentId).agentInfo?.agentCapabilities;
    const ideTools = await this.deps.ideTools.entryFor(session, capabilities?.mcpCapabilities.http ?? false);
    const mcpServers = await this.deps.mcpServers();
    const instructions = await this.deps.instructions.read();
    return {
      cwd: session.cwd,
      additionalDirectories: session.additionalDirectories,
      mcpServers: ideTools ? [...mcpServers, ideTools] : mcpServers,
      systemPrompt: instructions.text,
      /** For the session header: whether the instructions reach this agent. */
      instructions: instructionsView(instructions, capabilities?.sessionCapabilities.systemPrompt ?? false),
    };
  }

  promptSources(session: Session): PromptSources {
    return { mentions: this.deps.mentions, folders: [session.cwd, ...session.additionalDirectories], sessions: this.deps.sessions, store: this.deps.store };
  }

  /** The session closed or lost its agent: its IDE tools' token stops. */
  releaseTools(key: string): void {
    void this.deps.ideTools.release(key);
  }

  /**
   * Binds a detached session again: session/resume where the agent offers it (nothing is replayed), else
   * session/load (its replay is skipped: the transcript is already here), else a new session.
   */
  async connect(session: Session): Promise<AcpClientConnection> {
    const runtime = this.deps.agents.runtime(session.agentId);
    const connection = await runtime.start();
    if (!session.detached) return connection;
    const params = await this.paramsOf(session);
    for (const method of REBIND_METHODS) {
      if (!connection.supports(method)) continue;
      session.suppressReplay = method === 'session/load';
      try {
        const request = method === 'session/resume' ? () => connection.resumeSession(session.acpSessionId, params) : () => connection.loadSession(session.acpSessionId, params);
        session.applySetup(await this.withAuth(session.agentId, request));
        session.useInstructions(params.instructions);
        this.bind(session, session.acpSessionId, runtime);
        this.log.info(`Bound session ${session.acpSessionId} of ${session.agentId} again with ${method}`);
        return connection;
      } catch (error) {
        this.log.warn(`Could not bind session ${session.acpSessionId} again with ${method}: ${errorMessage(error)}`);
      } finally {
        session.suppressReplay = false;
      }
    }
    this.log.warn(`Starting a new session of ${session.agentId} in place of ${session.acpSessionId}`);
    const result = await this.withAuth(session.agentId, () => connection.newSession(params));
    session.applySetup(result);
    session.recordError(`${session.agentId} started a new session: it does not remember the messages above.`);
    this.bind(session, result.sessionId, runtime);
    return connection;
  }

  /** The session now lives in `acpSessionId` of this runtime's process; the registry indexes it again. */
  bind(session: Session, acpSessionId: string, runtime: AgentRuntime): void {
    this.deps.sessions.reindex(session, () => session.bind(acpSessionId, runtime.agentInfo));
  }

  withAuth<T>(agentId: string, request: () => Promise<T>, afterSignIn?: string): Promise<T> {
    return this.deps.agents.withAuth(agentId, request, afterSignIn);
  }

  agentCrashed(agentId: string): boolean {
    return this.deps.agents.crashed(agentId);
  }

  offerRestart(agentId: string): void {
    void vscode.window
      .showWarningMessage(`${agentId} did not stop when asked. Restart it?`, 'Restart Agent')
      .then((choice) => choice && this.deps.agents.restart(agentId));
  }

  cancelRequests(scopedId: string): void {
    this.deps.cards.cancel(scopedId);
  }

  disposeTerminals(scopedId: string): void {
    this.deps.terminals.disposeSession(scopedId);
  }

  turnChanged(session: Session): void {
    if (session.turn === 'idle') void this.deps.tabs.save(session).then(() => this.deps.tabs.persist(this.deps.sessions.values(), this.deps.sessions.activeTabId()));
  }
}
