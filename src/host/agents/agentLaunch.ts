// What one start of an agent may do to its AgentRuntime. Each way of reaching an agent has its own launcher
// (localAgent.ts: a process; remoteAgent.ts: a connection) that runs the start's steps in order; the
// runtime (agentRuntime.ts) keeps the state those steps change, and `check` tells a launcher, after each
// wait, that a stop or restart has overtaken its start.
import type * as vscode from 'vscode';
import type { AcpClientConnection, AcpClientOptions, Logger } from '../../acp';
import type { AgentExit, ResolvedAgentDefinition } from '../../agents';
import type { AgentCrash, AgentStatus } from '../../shared/chatState';

/** What stop and restart end: the agent's process, or its remote connection. */
export interface AgentLink {
  close(): Promise<unknown>;
}

export interface AgentExitEvent {
  exit: AgentExit;
  /** False when the exit was asked for (stop/restart). */
  crashed: boolean;
}

export interface AgentLaunch {
  /** The definition as it was when this start began. */
  readonly definition: ResolvedAgentDefinition;
  readonly log: vscode.LogOutputChannel;
  /** The main log, each line marked with the agent's name. */
  readonly logger: Logger;
  /** Throws AgentStoppedError when a stop or restart came after this start began. */
  check(): void;
  setStatus(status: AgentStatus, detail?: string): void;
  /** The agent could not be started or reached: the crash banner says why (a lost remote connection is retried). */
  failed(error: unknown): void;
  crashed(crash: AgentCrash): void;
  /** Makes `link` the agent's; false when a stop or restart overtook this start (the launcher closes `link`, then checks). */
  own(link: AgentLink): boolean;
  /** Forgets `link` and closes the agent's ACP connection; false (and nothing done) when `link` is no longer the agent's. */
  release(link: AgentLink): boolean;
  /** Ends the agent's link and ACP connection. */
  shutdown(): Promise<void>;
  /** Makes the connection `create` returns the agent's, with the client's request handlers on it. */
  connect(create: (Connection: typeof AcpClientConnection, options: AcpClientOptions) => AcpClientConnection): AcpClientConnection;
  /** Disposed when the agent's ACP connection closes. */
  hold(disposable: { dispose(): unknown }): void;
  /** Sends initialize as Switchboard, then runs the runtime's afterInitialize. */
  initialize(connection: AcpClientConnection, o: { terminalAuth: boolean; timeoutMs: number }): Promise<void>;
  /** The start finished: callers may have `connection` now, and the agent shows as ready. */
  ready(connection: AcpClientConnection): void;
  /** The agent ended: tells the runtime's onDidExit listeners. */
  exited(event: AgentExitEvent): void;
}
