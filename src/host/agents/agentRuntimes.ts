// The running agents, one AgentRuntime per agent name, shared by that agent's sessions. Created on first
// use, kept in step with the settings, stopped on dispose.
import * as vscode from 'vscode';
import { errorMessage, type AcpClientConnection, type AgentAuthStatus, type ClientRequestHandlers, type SessionNotification } from '../../acp';
import type { LoginShellEnvironmentCache, ResolvedAgentDefinition } from '../../agents';
import type { AgentSecrets } from '../auth/agentSecrets';
import type { LogChannels } from '../log/logChannels';
import type { ProtocolLog } from '../log/protocolLog';
import { AgentRuntime } from './agentRuntime';

export interface AgentRuntimesOptions {
  logs: LogChannels;
  protocolLog: ProtocolLog;
  secrets: AgentSecrets;
  shellEnvironment: LoginShellEnvironmentCache;
  clientVersion: string;
  cwd(): string;
  handlers(agentName: string): Partial<ClientRequestHandlers>;
  onUpdate(agentName: string, notification: SessionNotification): void;
  /** The agent says a URL elicitation finished (elicitation/complete). */
  onElicitationComplete(agentName: string, elicitationId: string): void;
  /** The agent said who it is signed in as. */
  onAuthStatus(agentName: string, status: AgentAuthStatus): void;
  /** The agent's process ended without being asked to. */
  onCrash(runtime: AgentRuntime): void;
  /** After each initialize, before the agent's sessions open (see AgentRuntimeOptions.afterInitialize). */
  afterInitialize?(agentName: string, connection: AcpClientConnection): Promise<void>;
}

export class AgentRuntimes implements vscode.Disposable {
  private readonly runtimes = new Map<string, AgentRuntime>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  /** An agent's state changed (starting, ready, crashed, sign-in). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly o: AgentRuntimesOptions) {
    this.disposables.push(this.changeEmitter);
  }

  get(name: string): AgentRuntime | undefined {
    return this.runtimes.get(name);
  }

  values(): IterableIterator<AgentRuntime> {
    return this.runtimes.values();
  }

  /** The agent's runtime, created on first use; an existing one takes the definition's changes. */
  for(definition: ResolvedAgentDefinition): AgentRuntime {
    const existing = this.runtimes.get(definition.name);
    if (existing) {
      existing.updateDefinition(definition);
      return existing;
    }
    const runtime = new AgentRuntime({
      definition,
      cwd: this.o.cwd(),
      stderrLog: this.o.logs.agent(definition.name),
      log: this.o.logs.main,
      trace: this.o.protocolLog.hookFor(definition.name),
      shellEnvironment: this.o.shellEnvironment,
      getSecretEnv: () => this.o.secrets.environment(definition.name),
      // A remote agent's `${secret}` header values: asked for once, kept in SecretStorage.
      secrets: this.o.secrets,
      handlers: this.o.handlers(definition.name),
      clientVersion: this.o.clientVersion,
      afterInitialize: async (connection) => {
        this.askAuthStatus(definition.name, connection);
        await this.o.afterInitialize?.(definition.name, connection);
      },
      onConnection: (connection) => {
        const updates = connection.onSessionUpdate((n) => this.o.onUpdate(definition.name, n));
        const auth = connection.onAuthStatus((s) => this.o.onAuthStatus(definition.name, s));
        const elicitations = connection.onElicitationComplete((p) => this.o.onElicitationComplete(definition.name, p.elicitationId));
        return { dispose: () => (updates.dispose(), auth.dispose(), elicitations.dispose()) };
      },
    });
    this.disposables.push(
      runtime,
      runtime.onDidChange(() => this.changeEmitter.fire()),
      runtime.onDidExit((e) => e.crashed && this.o.onCrash(runtime)),
    );
    this.runtimes.set(definition.name, runtime);
    return runtime;
  }

  /**
   * Who the agent is signed in as, asked once it started (where it offers auth/status), so it shows before the
   * first prompt. A status the agent pushes meanwhile is at least as new as the answer, which then gives way.
   */
  private askAuthStatus(agentName: string, connection: AcpClientConnection): void {
    if (!connection.supports('auth/status')) return;
    let pushed = false;
    const watch = connection.onAuthStatus(() => (pushed = true));
    connection
      .authStatus()
      .then(
        (status) => pushed || this.o.onAuthStatus(agentName, status),
        (error: unknown) => this.o.logs.main.warn(`${agentName}: auth/status failed: ${errorMessage(error)}`),
      )
      .finally(() => watch.dispose());
  }

  /** The settings changed: running agents take their new definitions (used on their next start). */
  update(definitions: readonly ResolvedAgentDefinition[]): void {
    for (const [name, runtime] of this.runtimes) {
      const definition = definitions.find((a) => a.name === name);
      if (definition) runtime.updateDefinition(definition);
    }
    this.changeEmitter.fire();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((r) => r.stop().catch(() => undefined)));
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
