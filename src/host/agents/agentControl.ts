// The agents as the chat sees them: their runtimes, sign-in, who they are signed in as, restart and crash
// handling. When an agent's process goes away it says so (onDidEndProcess); its sessions listen.
import * as vscode from 'vscode';
import { errorMessage, type AcpClientConnection, type AgentAuthStatus } from '../../acp';
import type { ResolvedAgentDefinition } from '../../agents';
import type { AgentView } from '../../shared/chatState';
import { AgentSignIn } from './agentSignIn';
import type { AuthUi } from '../auth/authFlow';
import type { AgentConfiguration } from './configuration/agentConfiguration';
import type { AgentRuntime } from './agentRuntime';
import { AgentRuntimes, type AgentRuntimesOptions } from './agentRuntimes';
import { AgentProviders } from './configuration/providers';
import { agentView } from './agentView';

export interface AgentControlOptions extends Omit<AgentRuntimesOptions, 'onCrash' | 'onAuthStatus' | 'afterInitialize'> {
  configuration: AgentConfiguration;
}

/** An agent's process went away: restarted, or crashed (`crash` says how, for the sessions' banners). */
export interface AgentProcessEnd {
  agentId: string;
  crash?: { message: string; detail?: string };
}

export class AgentControl implements vscode.Disposable {
  private readonly runtimes: AgentRuntimes;
  private readonly signIn: AgentSignIn;
  /** Model provider settings (unstable providers/*), applied again after each start. */
  readonly providers: AgentProviders;
  /** Who each agent last said it is signed in as. */
  private readonly accounts = new Map<string, AgentAuthStatus>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly endEmitter = new vscode.EventEmitter<AgentProcessEnd>();
  private readonly signInEmitter = new vscode.EventEmitter<string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** An agent's state, sign-in or account changed. */
  readonly onDidChange = this.changeEmitter.event;
  /** An agent's process is gone (before a restart starts the next one): its sessions end their turns and forget it. */
  readonly onDidEndProcess = this.endEmitter.event;
  /** The user signed in to an agent: what waited for it (a message, a new session) goes now. */
  readonly onDidSignIn = this.signInEmitter.event;

  constructor(private readonly o: AgentControlOptions) {
    this.providers = new AgentProviders({ secrets: o.secrets, log: o.logs.main, start: (name) => this.runtime(name).start() });
    this.runtimes = new AgentRuntimes({
      ...o,
      afterInitialize: (name, connection) => this.providers.afterInitialize(name, connection),
      onCrash: (runtime) => this.onCrash(runtime),
      onAuthStatus: (name, status) => {
        this.accounts.set(name, status);
        this.changeEmitter.fire();
      },
    });
    this.signIn = new AgentSignIn({
      secrets: o.secrets,
      info: (m) => o.logs.main.info(m),
      agentsChanged: () => this.changeEmitter.fire(),
      signedIn: (agentId) => this.signInEmitter.fire(agentId),
    });
    this.disposables.push(
      this.runtimes,
      this.providers,
      this.providers.onDidChange(() => this.changeEmitter.fire()),
      this.changeEmitter,
      this.endEmitter,
      this.signInEmitter,
      this.runtimes.onDidChange(() => this.changeEmitter.fire()),
      o.configuration.onDidChange(() => this.runtimes.update(o.configuration.snapshot.agents)),
    );
  }

  views(): AgentView[] {
    return this.o.configuration.snapshot.agents.map((a) =>
      agentView(
        a.name,
        this.runtimes.get(a.name),
        { flows: this.signIn.flowsOf(a.name), error: this.signIn.failureOf(a.name), retry: this.signIn.retryOf(a.name) },
        a.icon,
        this.accounts.get(a.name),
        this.providers.view(a.name, this.runtimes.get(a.name)?.connection),
      ),
    );
  }

  defaultAgentId(): string | undefined {
    const snapshot = this.o.configuration.snapshot;
    if (snapshot.defaultAgent && snapshot.agents.some((a) => a.name === snapshot.defaultAgent)) return snapshot.defaultAgent;
    // Prefer an agent the user configured over the built-in presets.
    return snapshot.agents.find((a) => a.source === 'settings')?.name ?? snapshot.agents[0]?.name;
  }

  definitionOf(name: string): ResolvedAgentDefinition {
    const definition = this.o.configuration.find(name);
    if (!definition) throw new Error(`There is no agent named "${name}" in switchboard.agents or the built-in presets.`);
    return definition;
  }

  /** The agent's runtime, created on first use. */
  runtime(name: string): AgentRuntime {
    return this.runtimes.for(this.definitionOf(name));
  }

  running(name: string): AgentRuntime | undefined {
    return this.runtimes.get(name);
  }

  all(): IterableIterator<AgentRuntime> {
    return this.runtimes.values();
  }

  crashed(agentId: string): boolean {
    return this.runtimes.get(agentId)?.status === 'crashed';
  }

  /**
   * Runs an agent request; on -32000 the agent waits for sign-in (its banner says what happens after it:
   * `afterSignIn`) and the AuthRequiredError is rethrown; onDidSignIn says when it may be asked again.
   */
  withAuth<T>(agentId: string, request: () => Promise<T>, afterSignIn?: string): Promise<T> {
    return this.signIn.run(this.runtimes.get(agentId), agentId, request, afterSignIn);
  }

  async restart(agentId: string): Promise<AcpClientConnection> {
    const runtime = this.runtime(agentId);
    this.endEmitter.fire({ agentId });
    return runtime.restart();
  }

  /** Runs the sign-in method the user chose (in the workspace folder); the request that needed it follows. */
  async authenticate(agentId: string, methodId: string): Promise<void> {
    const runtime = this.runtimes.get(agentId);
    if (!runtime) throw new Error(`${agentId} did not offer the sign-in method "${methodId}".`);
    await this.signIn.authenticate(runtime, methodId, {
      cwd: this.o.cwd(),
      restart: async () => {
        this.endEmitter.fire({ agentId });
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
    if (connection?.supports('logout')) await connection.logout();
    await this.o.secrets.clear(agentId);
    this.providers.forget(agentId);
  }

  /** Transcripts stay; the turns end; pending requests are answered cancelled; terminals die with the agent. */
  private onCrash(runtime: AgentRuntime): void {
    const crash = { message: runtime.crash?.message ?? `${runtime.name} stopped unexpectedly.`, detail: runtime.crash?.stderrTail.slice(-10).join('\n') };
    this.endEmitter.fire({ agentId: runtime.name, crash });
    const tail = runtime.crash?.stderrTail.slice(-3).join('\n');
    const restart = runtime.isRemote ? 'Reconnect' : 'Restart Agent';
    void vscode.window.showErrorMessage(`${crash.message}${tail ? `\n${tail}` : ''}`, restart, 'Show Log').then((choice) => {
      if (choice === restart) void this.restart(runtime.name).catch((e: unknown) => void vscode.window.showErrorMessage(errorMessage(e)));
      if (choice === 'Show Log') this.o.logs.agent(runtime.name).show(true);
    });
  }

  stopAll(): Promise<void> {
    return this.runtimes.stopAll();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
