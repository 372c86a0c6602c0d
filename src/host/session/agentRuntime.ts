// One running agent: its process, its ACP connection and its state as the chat shows it.
// One process serves all the agent's sessions; a crash keeps the sessions' transcripts (the
// backend owns them) and is reported with the agent's last stderr lines.
import * as vscode from 'vscode';
import { AcpClientConnection, errorMessage, type ClientRequestHandlers, type InitializeResult, type TraceHook } from '../../acp';
import {
  AgentSpawnError,
  CommandNotFoundError,
  RestartPolicy,
  describeAgentExit,
  startAgentProcess,
  type AgentExit,
  type AgentProcess,
  type LoginShellEnvironmentCache,
  type ResolvedAgentDefinition,
} from '../../agents';
import type { AgentCrash, AgentStatus } from '../../shared/chatState';

export interface AgentRuntimeOptions {
  definition: ResolvedAgentDefinition;
  cwd: string;
  /** The agent's stderr channel. */
  stderrLog: vscode.LogOutputChannel;
  log: vscode.LogOutputChannel;
  trace: TraceHook;
  shellEnvironment: LoginShellEnvironmentCache;
  /** Secrets collected for `env_var` sign-in, applied last to the agent's environment. */
  getSecretEnv(): Promise<Record<string, string>>;
  /** Agent->client request handlers (fs, terminals, permissions, elicitation). */
  handlers: Partial<ClientRequestHandlers>;
  clientVersion: string;
  /** Optional hook to register more handlers (extension methods) on each new connection. */
  onConnection?(connection: AcpClientConnection): vscode.Disposable | undefined;
}

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
  private connectionValue: AcpClientConnection | undefined;
  private starting: Promise<AcpClientConnection> | undefined;
  private connectionDisposables: vscode.Disposable[] = [];
  /** Set when the restart cap was hit: automatic restarts stop until the user asks. */
  private restartRefused: string | undefined;

  constructor(private options: AgentRuntimeOptions) {}

  get name(): string {
    return this.options.definition.name;
  }

  get definition(): ResolvedAgentDefinition {
    return this.options.definition;
  }

  get connection(): AcpClientConnection | undefined {
    return this.connectionValue;
  }

  get agentInfo(): InitializeResult | undefined {
    return this.connectionValue?.agent;
  }

  /** A changed definition applies at the next start. */
  updateDefinition(definition: ResolvedAgentDefinition): void {
    this.options = { ...this.options, definition };
  }

  /** Starts the agent once; concurrent callers share the start. */
  start(): Promise<AcpClientConnection> {
    if (this.connectionValue && !this.connectionValue.isClosed) return Promise.resolve(this.connectionValue);
    if (this.restartRefused) return Promise.reject(new Error(this.restartRefused));
    this.starting ??= this.launch().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** The user asked (Restart button / command): a fresh restart budget. */
  async restart(): Promise<AcpClientConnection> {
    this.restartRefused = undefined;
    this.restartPolicy.reset();
    await this.stop();
    return this.start();
  }

  async stop(): Promise<void> {
    const proc = this.process;
    this.teardownConnection();
    if (proc) await proc.stop();
    this.process = undefined;
    if (this.status !== 'crashed') this.setStatus('stopped');
  }

  setAuthRequired(): void {
    this.setStatus('auth_required');
  }

  markReady(): void {
    if (this.connectionValue && !this.connectionValue.isClosed) this.setStatus('ready');
  }

  private async launch(): Promise<AcpClientConnection> {
    const { definition, cwd } = this.options;
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
      this.failStart(error);
      throw error;
    }
    this.process = proc;
    this.options.log.info(`Started ${definition.name}: ${proc.commandLine} (pid ${proc.pid})`);
    const connection = AcpClientConnection.forChildProcess(proc, {
      trace: this.options.trace,
      logger: {
        info: (m: string) => this.options.log.info(`[${definition.name}] ${m}`),
        warn: (m: string) => this.options.log.warn(`[${definition.name}] ${m}`),
        error: (m: string) => this.options.log.error(`[${definition.name}] ${m}`),
        debug: (m: string) => this.options.log.debug(`[${definition.name}] ${m}`),
      },
    });
    this.connectionValue = connection;
    this.connectionDisposables.push(toDisposable(connection.handleAll(this.options.handlers)));
    const extra = this.options.onConnection?.(connection);
    if (extra) this.connectionDisposables.push(extra);
    const exitListener = proc.onDidExit((exit) => this.onExit(proc, exit));
    this.connectionDisposables.push(toDisposable(exitListener));
    try {
      await connection.initialize({
        clientInfo: { name: 'switchboard', title: 'Switchboard for VS Code', version: this.options.clientVersion },
        terminalAuth: true,
      }, { timeoutMs: 120_000 });
    } catch (error) {
      // The process may still run (e.g. it answered another protocol version): stop it.
      const tail = proc.stderrTail();
      await this.stop();
      this.crash = { message: `${definition.name} could not be initialised: ${errorMessage(error)}`, stderrTail: tail };
      this.setStatus('crashed');
      throw error;
    }
    this.setStatus('ready');
    return connection;
  }

  private failStart(error: unknown): void {
    const message =
      error instanceof CommandNotFoundError || error instanceof AgentSpawnError
        ? error.message
        : `${this.options.definition.name} could not be started: ${errorMessage(error)}`;
    this.options.log.error(message);
    this.crash = { message, stderrTail: [] };
    this.setStatus('crashed');
  }

  private onExit(proc: AgentProcess, exit: AgentExit): void {
    if (proc !== this.process) return;
    this.teardownConnection();
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

  private teardownConnection(): void {
    for (const d of this.connectionDisposables) d.dispose();
    this.connectionDisposables = [];
    this.connectionValue?.close();
    this.connectionValue = undefined;
  }

  private setStatus(status: AgentStatus, detail?: string): void {
    this.status = status;
    this.detail = detail;
    this.changeEmitter.fire();
  }

  dispose(): void {
    void this.stop();
    this.changeEmitter.dispose();
    this.exitEmitter.dispose();
  }
}

function toDisposable(d: { dispose(): unknown }): vscode.Disposable {
  return { dispose: () => void d.dispose() };
}

