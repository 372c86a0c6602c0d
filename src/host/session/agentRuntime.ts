// One running agent: its process (or, for a remote agent, its connection), its ACP connection and
// its state as the chat shows it. One process or connection serves all the agent's sessions; a
// crash or a dropped connection keeps the sessions' transcripts (the backend owns them) and is
// reported the same way (onDidExit with crashed: true), so the session layer ends the turn, keeps
// the transcript and loads the sessions again on the next prompt. A dropped remote connection is
// also retried with backoff (remoteAgent.ts) until it is back, the user reconnects, or it gives up.
import * as vscode from 'vscode';
import {
  type AcpClientConnection,
  errorMessage,
  RemoteConnectionError,
  type InitializeResult,
  type RemoteTransport,
} from '../../acp';
import {
  AgentSpawnError,
  CommandNotFoundError,
  RestartPolicy,
  type ReconnectBackoff,
  describeAgentExit,
  startAgentProcess,
  type AgentExit,
  type AgentProcess,
  type LoginShellEnvironmentCache,
  type RemoteAgentEndpoint,
  type ResolvedAgentDefinition,
} from '../../agents';
import type { AgentCrash, AgentStatus } from '../../shared/chatState';
import type { AgentSecrets } from '../auth/agentSecrets';
import type { AuthUi } from '../auth/authFlow';
import { SecretNotGivenError } from '../auth/secretHeaders';
import { AgentConnection, type AgentConnectionOptions } from './agentConnection';
import { RemoteReconnect, connectRemoteAgent, forgetRefusedSecrets } from './remoteAgent';

export interface AgentRuntimeOptions extends AgentConnectionOptions {
  definition: ResolvedAgentDefinition;
  cwd: string;
  /** The agent's stderr channel. */
  stderrLog: vscode.LogOutputChannel;
  shellEnvironment: LoginShellEnvironmentCache;
  /** Secrets collected for `env_var` sign-in, applied last to the agent's environment. */
  getSecretEnv(): Promise<Record<string, string>>;
  /** Where a remote agent's `${secret}` header values are kept; without it such an agent cannot connect. */
  secrets?: AgentSecrets;
  /** Asks for those values (replaceable in tests). */
  secretUi?(): AuthUi;
  /** Reconnect delays after a dropped remote connection (tests shorten them). */
  reconnect?: ConstructorParameters<typeof ReconnectBackoff>[0];
}

/** The ACP connection (vscode-jsonrpc, the message schemas) loads when the first agent starts, not at activation. */
const loadConnection = () => import('../../acp/connection/clientConnection');

/** How long a remote agent may take to answer initialize (a local one gets longer: it may be installing). */
const REMOTE_INITIALIZE_TIMEOUT_MS = 30_000;
const LOCAL_INITIALIZE_TIMEOUT_MS = 120_000;

export interface AgentExitEvent {
  exit: AgentExit;
  /** False when the exit was asked for (stop/restart). */
  crashed: boolean;
}

export class AgentRuntime implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly exitEmitter = new vscode.EventEmitter<AgentExitEvent>();
  readonly onDidChange = this.changeEmitter.event;
  readonly onDidExit = this.exitEmitter.event;
  readonly restartPolicy = new RestartPolicy();

  status: AgentStatus = 'stopped';
  crash: AgentCrash | undefined;
  detail: string | undefined;
  private process: AgentProcess | undefined;
  private transport: RemoteTransport | undefined;
  private readonly reconnect: RemoteReconnect;
  private readonly acp: AgentConnection;
  private starting: Promise<AcpClientConnection> | undefined;
  /** Bumped by every stop and restart: a start begun before it gives up instead of finishing (see superseded). */
  private generation = 0;
  /** Counts stop() calls: a caller whose start was overtaken by one is told so rather than started again. */
  private stops = 0;
  /** Set when the restart cap was hit: automatic restarts stop until the user asks. */
  private restartRefused: string | undefined;

  constructor(private options: AgentRuntimeOptions) {
    this.acp = new AgentConnection(options.definition.name, options);
    this.reconnect = new RemoteReconnect({
      backoff: options.reconnect,
      report: (message) => {
        this.crash = { message, stderrTail: [] };
        this.setStatus('crashed');
      },
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

  /**
   * Starts the agent once; concurrent callers share the start. A caller whose start was overtaken by a
   * restart gets the restarted agent; one overtaken by a stop gets AgentStoppedError.
   */
  async start(): Promise<AcpClientConnection> {
    for (;;) {
      const ready = this.connection;
      if (ready && !ready.isClosed) return ready;
      if (this.restartRefused) throw new Error(this.restartRefused);
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
    this.restartRefused = undefined;
    this.restartPolicy.reset();
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
    const proc = this.process;
    const transport = this.transport;
    this.acp.close();
    this.transport = undefined;
    this.process = undefined;
    if (proc) await proc.stop();
    if (transport) await transport.close();
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
    const remote = this.options.definition.remote;
    return remote ? this.launchRemote(remote, generation) : this.launchProcess(generation);
  }

  private async launchProcess(generation: number): Promise<AcpClientConnection> {
    const { definition, cwd } = this.options;
    const { AcpClientConnection } = await loadConnection();
    this.superseded(generation);
    this.crash = undefined;
    this.setStatus('starting', `starting ${definition.command}…`);
    let proc: AgentProcess;
    try {
      const [shellEnv, secretEnv] = await Promise.all([this.options.shellEnvironment.get(), this.options.getSecretEnv()]);
      proc = await startAgentProcess({
        definition,
        cwd,
        loginShellPath: shellEnv.env.PATH,
        secretEnv,
        installHint: definition.installHint,
        logger: {
          info: (m) => this.options.stderrLog.info(m),
          warn: (m) => this.options.stderrLog.warn(m),
          error: (m) => this.options.stderrLog.error(m),
        },
      });
    } catch (error) {
      this.superseded(generation);
      this.failStart(error);
      throw error;
    }
    if (generation !== this.generation) {
      await proc.stop();
      this.superseded(generation);
    }
    this.process = proc;
    this.options.log.info(`Started ${definition.name}: ${proc.commandLine} (pid ${proc.pid})`);
    const connection = this.acp.open((options) => AcpClientConnection.forChildProcess(proc, options));
    this.acp.hold(proc.onDidExit((exit) => this.onExit(proc, exit)));
    try {
      await this.acp.initialize(connection, { terminalAuth: true, timeoutMs: LOCAL_INITIALIZE_TIMEOUT_MS });
    } catch (error) {
      this.superseded(generation);
      // The process may still run (e.g. it answered another protocol version): stop it.
      const tail = proc.stderrTail();
      await this.shutdown();
      this.crash = { message: `${definition.name} could not be initialised: ${errorMessage(error)}`, stderrTail: tail };
      this.setStatus('crashed');
      throw error;
    }
    this.superseded(generation);
    this.acp.markInitialized(connection);
    this.setStatus('ready');
    return connection;
  }

  /**
   * A remote agent: check the URL and the credentials policy (before asking for any secret), fill in
   * the secret headers, connect, initialize. Its `fs/*` and `terminal/*` requests run here, through
   * the same handlers and confinement as a local agent's.
   */
  private async launchRemote(remote: RemoteAgentEndpoint, generation: number): Promise<AcpClientConnection> {
    const { definition } = this.options;
    const { AcpClientConnection } = await loadConnection();
    this.superseded(generation);
    this.crash = undefined;
    let transport: RemoteTransport;
    try {
      transport = await connectRemoteAgent({
        name: this.name,
        remote,
        logger: this.acp.logger(),
        secrets: this.options.secrets,
        secretUi: this.options.secretUi,
        connecting: (host) => this.setStatus('starting', `connecting to ${host}…`),
        onDrop: (dropped, error) => this.onDrop(dropped, error),
      });
    } catch (error) {
      this.superseded(generation);
      await forgetRefusedSecrets(this.name, error, remote, this.options.secrets);
      this.failStart(error);
      throw error;
    }
    if (generation !== this.generation) {
      await transport.close();
      this.superseded(generation);
    }
    this.transport = transport;
    this.options.log.info(`Connecting to ${definition.name} at ${describeUrl(remote.url)}`);
    const connection = this.acp.open((options) => new AcpClientConnection(transport.input, transport.output, { ...options, framing: 'message' }));
    try {
      // The agent's login command cannot run here: it lives on the server.
      await this.acp.initialize(connection, { terminalAuth: false, timeoutMs: REMOTE_INITIALIZE_TIMEOUT_MS });
    } catch (error) {
      this.superseded(generation);
      // When the transport failed (a 401, a network error) it says why better than the request does.
      const failure = await settledNow(transport.closed);
      this.transport = undefined;
      this.acp.close();
      await transport.close();
      const reason = failure ?? error;
      await forgetRefusedSecrets(this.name, reason, remote, this.options.secrets);
      this.failStart(reason);
      throw reason;
    }
    this.superseded(generation);
    this.reconnect.reset();
    this.options.log.info(`Connected to ${definition.name} at ${describeUrl(remote.url)}`);
    this.acp.markInitialized(connection);
    this.setStatus('ready');
    return connection;
  }

  /** The connection to a remote agent ended without being asked to: report it like a crash, then retry. */
  private onDrop(transport: RemoteTransport, error: RemoteConnectionError): void {
    if (transport !== this.transport) return;
    this.transport = undefined;
    this.acp.close();
    this.options.log.error(`${this.name}: ${error.message}`);
    this.reconnect.dropped(error);
    this.exitEmitter.fire({ exit: { code: null, signal: null, requested: false, stderrTail: [] }, crashed: true });
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
    this.crash = { message, stderrTail: [] };
    this.setStatus('crashed');
    // A lost connection that still cannot be made again is retried; refused credentials or URLs are not.
    this.reconnect.failed(error, message);
  }

  private onExit(proc: AgentProcess, exit: AgentExit): void {
    if (proc !== this.process) return;
    this.acp.close();
    this.process = undefined;
    const crashed = !exit.requested;
    if (crashed) {
      const decision = this.restartPolicy.recordCrash(this.name);
      const description = describeAgentExit(exit);
      this.options.log.error(`${this.name} ${description}`);
      this.crash = {
        message: decision.allowed
          ? `${this.name} ${description}.`
          : `${this.name} ${description}. ${decision.reason}`,
        exitCode: exit.code,
        signal: exit.signal,
        stderrTail: [...exit.stderrTail],
      };
      if (!decision.allowed) this.restartRefused = decision.reason;
      this.setStatus('crashed');
    } else {
      this.setStatus('stopped');
    }
    this.exitEmitter.fire({ exit, crashed });
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

/** For logs: no query string (it may carry a token). */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** The promise's value if it settles before the next macrotask, else undefined. */
function settledNow<T>(promise: Promise<T>): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)))]);
}

