// One agent's lifecycle: start, stop and restart in any order (a stop or restart bumps a generation; a
// start it overtakes gives up), its status as the chat shows it, and what ends it. One process or remote
// connection serves all the agent's sessions; localAgent.ts and remoteAgent.ts launch each, and
// agentConnection.ts is the ACP connection over either. A crash or a dropped connection keeps the
// sessions' transcripts (the backend owns them) and is reported the same way (onDidExit with crashed:
// true), so the session layer ends the turn, keeps the transcript and loads the sessions again on the
// next prompt.
import * as vscode from 'vscode';
import { type AcpClientConnection, errorMessage, RemoteConnectionError, type InitializeResult } from '../../acp';
import { AgentSpawnError, CommandNotFoundError, type ReconnectBackoff, type ResolvedAgentDefinition } from '../../agents';
import type { AgentCrash, AgentStatus } from '../../shared/chatState';
import { SecretNotGivenError } from '../auth/secretHeaders';
import { launchSettingsChanged, type LaunchSetting } from './configuration/agentConfigurationChanges';
import { AgentConnection, type AgentConnectionOptions } from './agentConnection';
import type { AgentExitEvent, AgentLaunch, AgentLink } from './agentLaunch';
import type { LocalAgentOptions } from './localAgent';
import type { RemoteAgentOptions } from './remote/remoteAgent';
import { RemoteReconnect } from './remote/remoteReconnect';
import { RestartCap } from './restartCap';

export interface AgentRuntimeOptions extends AgentConnectionOptions, LocalAgentOptions, RemoteAgentOptions {
  definition: ResolvedAgentDefinition;
  /** Reconnect delays after a dropped remote connection (tests shorten them). */
  reconnect?: ConstructorParameters<typeof ReconnectBackoff>[0];
}

/**
 * The ACP connection (vscode-jsonrpc, the message schemas) and the launchers (a local agent's process code,
 * a remote agent's transports) load when the first agent starts, not with the services.
 */
const loadConnection = () => import('../../acp/connection/clientConnection');
const loadLocalLauncher = () => import('./localAgent');
const loadRemoteLauncher = () => import('./remote/remoteAgent');

export class AgentRuntime implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly exitEmitter = new vscode.EventEmitter<AgentExitEvent>();
  readonly onDidChange = this.changeEmitter.event;
  readonly onDidExit = this.exitEmitter.event;

  status: AgentStatus = 'stopped';
  crash: AgentCrash | undefined;
  detail: string | undefined;
  /** The running process or remote connection. */
  private link: AgentLink | undefined;
  private readonly restarts = new RestartCap();
  private readonly reconnect: RemoteReconnect;
  private readonly acp: AgentConnection;
  private starting: Promise<AcpClientConnection> | undefined;
  /** Bumped by every stop and restart: a start begun before it gives up instead of finishing (see superseded). */
  private generation = 0;
  /** Counts stop() calls: a caller whose start was overtaken by one is told so rather than started again. */
  private stops = 0;
  /** The definition the running process or connection was started with. */
  private started: ResolvedAgentDefinition | undefined;

  constructor(private options: AgentRuntimeOptions) {
    this.acp = new AgentConnection(options.definition.name, options);
    this.reconnect = new RemoteReconnect({
      backoff: options.reconnect,
      report: (message) => this.showCrash({ message, stderrTail: [] }),
      retry: () => void this.start().catch(() => undefined),
    });
  }

  get name(): string {
    return this.options.definition.name;
  }

  get definition(): ResolvedAgentDefinition {
    return this.options.definition;
  }

  /** A remote agent: "Reconnect" rather than "Restart". */
  get isRemote(): boolean {
    return this.options.definition.remote !== undefined;
  }

  /** The agent's connection once it is initialized; undefined while it starts (requests would fail). */
  get connection(): AcpClientConnection | undefined {
    return this.acp.initialized;
  }

  get agentInfo(): InitializeResult | undefined {
    return this.acp.current?.agent;
  }

  /** A changed definition applies at the next start. */
  updateDefinition(definition: ResolvedAgentDefinition): void {
    this.options = { ...this.options, definition };
  }

  /** The launch settings changed since the running agent started: they apply once it restarts. */
  get settingsToApply(): LaunchSetting[] {
    if (!this.started || this.status === 'stopped' || this.status === 'crashed') return [];
    return launchSettingsChanged(this.started, this.options.definition);
  }

  /**
   * Starts the agent once; concurrent callers share the start. A caller whose start was overtaken by a
   * restart gets the restarted agent; one overtaken by a stop gets AgentStoppedError.
   */
  async start(): Promise<AcpClientConnection> {
    for (;;) {
      const ready = this.connection;
      if (ready && !ready.isClosed) return ready;
      if (this.restarts.refused) throw new Error(this.restarts.refused);
      const attempt = this.starting ?? this.track(this.launch(this.generation));
      const stops = this.stops;
      try {
        return await attempt;
      } catch (error) {
        // Overtaken by a restart (not a stop): wait for, or share, the start that replaced it.
        if (!(error instanceof AgentStoppedError) || this.stops !== stops) throw error;
      }
    }
  }

  /** The user asked (Restart button / command): a fresh restart budget. Twice at once: one restart. */
  restart(): Promise<AcpClientConnection> {
    this.restarts.reset();
    this.reconnect.reset();
    // Registered before stopping, so callers waiting for the start this overtakes wait for this one.
    this.track(this.halt().then((generation) => this.launch(generation)));
    return this.start();
  }

  /** Stops the agent; a start in progress gives up (its callers get AgentStoppedError). */
  async stop(): Promise<void> {
    this.stops++;
    this.starting = undefined;
    await this.halt();
  }

  private track(attempt: Promise<AcpClientConnection>): Promise<AcpClientConnection> {
    this.starting = attempt;
    const clear = () => {
      if (this.starting === attempt) this.starting = undefined;
    };
    attempt.then(clear, clear);
    return attempt;
  }

  /** Throws AgentStoppedError when a stop came after the start that captured `generation`. */
  private superseded(generation: number): void {
    if (generation !== this.generation) throw new AgentStoppedError(this.name);
  }

  /** Stops what runs and makes any start in progress give up; returns the new generation. */
  private async halt(): Promise<number> {
    const generation = ++this.generation;
    await this.shutdown();
    // A start begun while this one waited for the process to end owns the status now.
    if (generation === this.generation && this.status !== 'crashed') this.setStatus('stopped');
    return generation;
  }

  /** Ends the process or remote connection. Forgotten first, so a start begun meanwhile keeps its own. */
  private async shutdown(): Promise<void> {
    this.reconnect.cancel();
    const link = this.link;
    this.acp.close();
    this.link = undefined;
    if (link) await link.close();
  }

  setAuthRequired(): void {
    this.setStatus('auth_required');
  }

  markReady(): void {
    if (this.acp.current && !this.acp.current.isClosed) this.setStatus('ready');
  }

  /** `generation`: the one this start belongs to; a stop or restart since makes it give up. */
  private async launch(generation: number): Promise<AcpClientConnection> {
    this.superseded(generation);
    this.reconnect.cancel();
    const { definition } = this.options;
    const [{ AcpClientConnection }, launcher] = await Promise.all([loadConnection(), this.launcherFor(definition)]);
    this.superseded(generation);
    this.crash = undefined;
    this.started = definition;
    return launcher(this.launchFor(generation, definition, AcpClientConnection));
  }

  /** The launcher of `definition`'s kind of agent: a process, or a remote connection. */
  private async launcherFor(definition: ResolvedAgentDefinition): Promise<(run: AgentLaunch) => Promise<AcpClientConnection>> {
    const { remote } = definition;
    if (remote) {
      const { launchRemoteAgent } = await loadRemoteLauncher();
      return (run) => launchRemoteAgent(run, remote, this.options, this.reconnect);
    }
    const { launchLocalAgent } = await loadLocalLauncher();
    return (run) => launchLocalAgent(run, this.options, this.restarts);
  }

  /** What the launcher of the start that belongs to `generation` may do here. */
  private launchFor(generation: number, definition: ResolvedAgentDefinition, Connection: typeof AcpClientConnection): AgentLaunch {
    return {
      definition,
      log: this.options.log,
      logger: this.acp.logger(),
      check: () => this.superseded(generation),
      setStatus: (status, detail) => this.setStatus(status, detail),
      failed: (error) => this.failStart(error),
      crashed: (crash) => this.showCrash(crash),
      own: (link) => {
        if (generation !== this.generation) return false;
        this.link = link;
        return true;
      },
      release: (link) => this.release(link),
      shutdown: () => this.shutdown(),
      connect: (create) => this.acp.open((options) => create(Connection, options)),
      hold: (disposable) => this.acp.hold(disposable),
      initialize: (connection, o) => this.acp.initialize(connection, o),
      ready: (connection) => {
        this.acp.markInitialized(connection);
        this.setStatus('ready');
      },
      exited: (event) => this.exitEmitter.fire(event),
    };
  }

  private failStart(error: unknown): void {
    const message =
      error instanceof CommandNotFoundError ||
      error instanceof AgentSpawnError ||
      error instanceof RemoteConnectionError ||
      error instanceof SecretNotGivenError
        ? error.message
        : `${this.options.definition.name} could not be ${this.isRemote ? 'reached' : 'started'}: ${errorMessage(error)}`;
    this.options.log.error(message);
    this.showCrash({ message, stderrTail: [] });
    // A lost connection that still cannot be made again is retried; refused credentials or URLs are not.
    this.reconnect.failed(error, message);
  }

  /** Forgets `link` and closes its ACP connection, unless it is no longer the agent's. */
  private release(link: AgentLink): boolean {
    if (link !== this.link) return false;
    this.link = undefined;
    this.acp.close();
    return true;
  }

  private showCrash(crash: AgentCrash): void {
    this.crash = crash;
    this.setStatus('crashed');
  }

  private setStatus(status: AgentStatus, detail?: string): void {
    this.status = status;
    this.detail = detail;
    this.changeEmitter.fire();
  }

  dispose(): void {
    this.reconnect.dispose();
    void this.stop();
    this.changeEmitter.dispose();
    this.exitEmitter.dispose();
  }
}

/** The agent was stopped (or restarted) while this start was in progress. */
export class AgentStoppedError extends Error {
  constructor(name: string) {
    super(`${name} was stopped while it was starting.`);
    this.name = 'AgentStoppedError';
  }
}
