import { spawn, type ChildProcess } from 'child_process';
import { randomUUID } from 'crypto';
import type { Readable, Writable } from 'stream';
import type { AgentDefinition } from './agentDefinition';
import { AgentSpawnError } from './agentStartErrors';
import { neverThrows, silentLogger, type AgentLogger } from './logger';
import { killProcessTree, killTreeNowSync, listDescendants, signalProcessTrees, waitForProcessesToExit, type EnvTag, type ProcessEntry } from './processTree';
import { buildSpawnInvocation, getPathFromEnv, resolveCommand } from './resolveCommand';
import type { LoginShellEnvironment } from './shellEnvironment';
import { forgetAgent, trackAgent, type KillableTree } from './liveAgents';
import { LineRing, LineSplitter } from './stderrLines';

/*
 * One running agent process. The protocol layer gets its stdin/stdout; stderr is the agent's log
 * (forwarded line by line, last lines kept for crash banners). Stopping is graceful first (close
 * stdin: ACP agents exit on EOF), then SIGTERM, then SIGKILL, always for the whole process tree:
 * its descendants, its process group, and (Linux) every process that inherited this run's tag in
 * its environment, so a daemon the agent detached from both (Cline's hub daemon) is ended too.
 */

/** The environment variable that tags every process of one agent run (value: a random id per start). */
export const AGENT_RUN_ENV = 'SWITCHBOARD_AGENT_RUN';

export interface AgentProcessOptions {
  /** A settings entry or preset; a `ResolvedAgentDefinition`'s `installHint` is used when not given below. */
  readonly definition: AgentDefinition & { readonly installHint?: string };
  /** The workspace folder the agent works in. */
  readonly cwd: string;
  /** Receives each stderr line (info) and lifecycle messages. */
  readonly logger?: AgentLogger;
  /** Inherited environment (default: process.env). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  /** PATH of the user's login shell, replacing the inherited PATH. */
  readonly loginShellPath?: string;
  /** Alternatively the result of `LoginShellEnvironmentCache.get()`: its PATH is used when it came from the shell. */
  readonly loginShellEnvironment?: LoginShellEnvironment;
  /** Secrets from SecretStorage (e.g. API keys collected for `env_var` auth); applied last. */
  readonly secretEnv?: Readonly<Record<string, string>>;
  /** Shown when the command is not found (default: the definition's own hint). */
  readonly installHint?: string;
  /** How many stderr lines to keep for crash banners (default 100). */
  readonly stderrLineLimit?: number;
  /** Defaults for `stop()`. */
  readonly stopTimeouts?: Partial<StopTimeouts>;
  /** Injectable for tests of Windows behaviour; default process.platform. */
  readonly platform?: NodeJS.Platform;
}

export interface StopTimeouts {
  /** How long to wait after closing stdin before SIGTERM (default 2000 ms). */
  readonly stdinCloseMs: number;
  /** How long to wait after SIGTERM before SIGKILL (default 2000 ms). */
  readonly terminateMs: number;
}

export interface AgentExit {
  /** Exit code, or null when a signal ended the process. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the exit follows `stop()`; false means the agent crashed or quit on its own. */
  readonly requested: boolean;
  /** The last stderr lines at exit time (for the crash banner). */
  readonly stderrTail: readonly string[];
}

const DEFAULT_STOP: StopTimeouts = { stdinCloseMs: 2000, terminateMs: 2000 };

/**
 * How long what is left of an agent that has exited gets between SIGTERM and SIGKILL (at most
 * `terminateMs`): short, because it runs while VS Code shuts the extension host down (a window closed or
 * reloaded), which does not wait long, and a detached daemon may ignore SIGTERM (Cline's hub daemon).
 */
const LEFTOVER_GRACE_MS = 500;

/**
 * Resolves the command (throws `CommandNotFoundError`) and starts the agent. Resolves once the OS
 * has started the process; rejects with `AgentSpawnError` when it could not be started.
 */
export async function startAgentProcess(options: AgentProcessOptions): Promise<AgentProcess> {
  const platform = options.platform ?? process.platform;
  const tag: EnvTag = { name: AGENT_RUN_ENV, value: randomUUID() };
  const env = { ...buildAgentEnvironment(options, platform), [tag.name]: tag.value };
  const resolved = resolveCommand(options.definition.command, getPathFromEnv(env, platform), platform, {
    cwd: options.cwd,
    pathExt: env.PATHEXT,
    installHint: options.installHint ?? options.definition.installHint,
    agentName: options.definition.name,
  });
  const invocation = buildSpawnInvocation(resolved, options.definition.args);
  const child = spawn(invocation.file, invocation.args, {
    cwd: options.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsVerbatimArguments: invocation.windowsVerbatimArguments,
    windowsHide: true,
    // Own process group on POSIX, so orphans that a wrapper leaves behind can still be found.
    // (On Windows `detached` would open a console window; taskkill /T handles the tree there.)
    detached: platform !== 'win32',
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      child.off('spawn', onSpawn);
      reject(new AgentSpawnError(options.definition.name, resolved.executable, error.code, error));
    };
    const onSpawn = () => {
      child.off('error', onError);
      resolve();
    };
    child.once('error', onError);
    child.once('spawn', onSpawn);
  });
  const agent = new AgentProcess(child, options, resolved.executable, platform, tag);
  trackAgent(agent);
  return agent;
}

/** A started agent. Create with `startAgentProcess`. */
export class AgentProcess implements KillableTree {
  readonly pid: number;
  /** The protocol layer writes JSON-RPC here. Errors (EPIPE after a crash) are logged, not thrown. */
  readonly stdin: Writable;
  /** The protocol layer reads JSON-RPC from here. */
  readonly stdout: Readable;
  /** Resolves once when the process exits (never rejects). */
  readonly exited: Promise<AgentExit>;
  /** For logs: the executable and arguments as started. */
  readonly commandLine: string;

  private readonly logger: AgentLogger;
  private readonly stderrRing: LineRing;
  private readonly exitListeners = new Set<(exit: AgentExit) => void>();
  private readonly stopDefaults: StopTimeouts;
  private exitInfo: AgentExit | undefined;
  private stopRequested = false;
  private stopping: Promise<AgentExit> | undefined;

  /** @internal use startAgentProcess */
  constructor(
    child: ChildProcess,
    private readonly options: AgentProcessOptions,
    executable: string,
    private readonly platform: NodeJS.Platform,
    private readonly tag: EnvTag,
  ) {
    if (child.pid === undefined || !child.stdin || !child.stdout || !child.stderr) {
      throw new Error('AgentProcess needs a spawned child with piped stdio');
    }
    this.pid = child.pid;
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.logger = neverThrows(options.logger ?? silentLogger);
    this.stderrRing = new LineRing(options.stderrLineLimit ?? 100);
    this.stopDefaults = { ...DEFAULT_STOP, ...options.stopTimeouts };
    this.commandLine = [executable, ...options.definition.args].join(' ');

    const name = options.definition.name;
    this.stdin.on('error', (error) => this.logger.warn(`${name}: cannot write to the agent's stdin: ${error.message}`));
    this.stdout.on('error', (error) => this.logger.warn(`${name}: error reading the agent's stdout: ${error.message}`));
    child.stderr.on('error', (error) => this.logger.warn(`${name}: error reading the agent's stderr: ${error.message}`));
    child.on('error', (error) => this.logger.error(`${name}: process error: ${error.message}`));

    const splitter = new LineSplitter((line) => {
      this.stderrRing.push(line);
      this.logger.info(line);
    });
    child.stderr.on('data', (chunk: Buffer) => splitter.write(chunk));
    child.stderr.on('end', () => splitter.end());

    this.exited = new Promise<AgentExit>((resolve) => {
      child.once('exit', (code, signal) => {
        const exit: AgentExit = { code, signal, requested: this.stopRequested, stderrTail: this.stderrRing.toArray() };
        this.exitInfo = exit;
        this.logger.info(`${name} ${describeAgentExit(exit)}`);
        resolve(exit);
        for (const listener of [...this.exitListeners]) listener(exit);
        this.exitListeners.clear();
        // A crashed wrapper can leave the real agent running in our process group.
        if (!exit.requested) void this.terminateLeftovers([]).finally(() => forgetAgent(this));
      });
    });
  }

  /** True until the process has exited. */
  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** The last stderr lines, oldest first (at most `stderrLineLimit`). */
  stderrTail(): string[] {
    return this.stderrRing.toArray();
  }

  /** Called once when the process exits (immediately-after if it already has). */
  onDidExit(listener: (exit: AgentExit) => void): { dispose(): void } {
    if (this.exitInfo) {
      const exit = this.exitInfo;
      queueMicrotask(() => listener(exit));
      return { dispose: () => undefined };
    }
    this.exitListeners.add(listener);
    return { dispose: () => this.exitListeners.delete(listener) };
  }

  /**
   * Stops the agent and its whole process tree: close stdin, wait `stdinCloseMs`, SIGTERM the tree,
   * wait `terminateMs`, SIGKILL the tree; processes the agent left behind are ended too. Idempotent:
   * later calls return the first call's promise.
   */
  stop(timeouts: Partial<StopTimeouts> = {}): Promise<AgentExit> {
    if (!this.stopping) {
      this.stopRequested = true;
      this.stopping = this.runStop({ ...this.stopDefaults, ...timeouts });
    }
    return this.stopping;
  }

  private async runStop(timeouts: StopTimeouts): Promise<AgentExit> {
    const name = this.options.definition.name;
    // Snapshot the tree first: once the agent exits, its children are re-parented and unreachable.
    const snapshot = this.running ? await this.snapshotTree() : [];
    if (this.running) {
      this.stdin.end();
      if (await this.exitsWithin(timeouts.stdinCloseMs)) return this.finishStop(snapshot, timeouts);
      this.logger.info(`${name} did not exit ${timeouts.stdinCloseMs} ms after its input was closed; sending SIGTERM to its process tree.`);
      await this.signalTree('SIGTERM', snapshot);
      if (await this.exitsWithin(timeouts.terminateMs)) return this.finishStop(snapshot, timeouts);
      this.logger.warn(`${name} did not exit ${timeouts.terminateMs} ms after SIGTERM; killing its process tree.`);
      await this.signalTree('SIGKILL', snapshot);
    }
    return this.finishStop(snapshot, timeouts);
  }

  private async finishStop(snapshot: ProcessEntry[], timeouts: StopTimeouts): Promise<AgentExit> {
    const exit = await this.exited;
    await this.terminateLeftovers(snapshot, timeouts.terminateMs);
    forgetAgent(this);
    return exit;
  }

  /**
   * Synchronously SIGKILLs the agent (while it runs), its process group and (Linux) every process
   * carrying this run's tag: no grace, no waiting, so it completes even when the host exits right after.
   */
  killTreeNow(): void {
    this.stopRequested = true;
    if (this.platform === 'win32') {
      if (this.running) void killProcessTree(this.pid, 'SIGKILL', { platform: this.platform });
    } else {
      if (this.running) {
        try {
          process.kill(this.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      const killed = killTreeNowSync(this.tag, this.pid, this.platform);
      if (killed.length > 0) this.logger.info(`${this.options.definition.name}: killed ${killed.length} remaining process(es) of the agent: ${killed.join(', ')}.`);
    }
    forgetAgent(this);
  }

  /** After the agent itself exited: SIGTERM, then SIGKILL, whatever remains of its tree, group and tag. */
  private async terminateLeftovers(snapshot: readonly ProcessEntry[], terminateMs = this.stopDefaults.terminateMs): Promise<void> {
    if (this.platform === 'win32') return; // taskkill /T already ended the tree, and there are no groups
    const signalled = await this.signalTree('SIGTERM', snapshot);
    const survivors = signalled.filter((pid) => pid !== this.pid);
    if (survivors.length === 0) return;
    this.logger.info(`${this.options.definition.name}: ending ${survivors.length} leftover process(es) of the agent: ${survivors.join(', ')}.`);
    if (await waitForProcessesToExit(survivors, Math.min(terminateMs, LEFTOVER_GRACE_MS), this.platform)) return;
    await this.signalTree('SIGKILL', snapshot);
    await waitForProcessesToExit(survivors, 1000, this.platform);
  }

  private async snapshotTree(): Promise<ProcessEntry[]> {
    if (this.platform === 'win32') return [];
    try {
      return await listDescendants(this.pid, this.platform);
    } catch {
      return [];
    }
  }

  /**
   * Signals the agent (while it runs) with its descendants, the remembered snapshot, the agent's
   * process group and the processes carrying its tag. Once the agent has exited its pid is never signalled or walked again: it may be reused.
   */
  private async signalTree(signal: NodeJS.Signals, snapshot: readonly ProcessEntry[]): Promise<number[]> {
    if (this.platform === 'win32') {
      return this.running ? killProcessTree(this.pid, signal, { platform: this.platform }) : [];
    }
    return signalProcessTrees(signal, {
      roots: this.running ? [this.pid] : [],
      knownProcesses: snapshot,
      processGroup: this.pid,
      envTag: this.tag,
      platform: this.platform,
    });
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    if (!this.running) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const result = await Promise.race([this.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }
}

/**
 * The agent's environment: inherited env, the login shell's PATH, the definition's env, then
 * secrets (so a secret always wins over a value written in settings).
 */
export function buildAgentEnvironment(
  options: Pick<AgentProcessOptions, 'definition' | 'baseEnv' | 'loginShellPath' | 'loginShellEnvironment' | 'secretEnv'>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.baseEnv ?? process.env)) if (value !== undefined) env[key] = value;
  const shellEnv = options.loginShellEnvironment;
  const loginPath = options.loginShellPath ?? (shellEnv?.source === 'login-shell' ? getPathFromEnv(shellEnv.env, platform) : undefined);
  if (loginPath) setEnvVar(env, 'PATH', loginPath, platform);
  for (const [key, value] of Object.entries(options.definition.env)) setEnvVar(env, key, value, platform);
  for (const [key, value] of Object.entries(options.secretEnv ?? {})) setEnvVar(env, key, value, platform);
  return env;
}

/** Windows env names are case-insensitive: replace `Path` when setting `PATH`, never keep both. */
function setEnvVar(env: Record<string, string>, key: string, value: string, platform: NodeJS.Platform): void {
  if (platform === 'win32') {
    const existing = Object.keys(env).find((name) => name.toUpperCase() === key.toUpperCase());
    if (existing !== undefined) {
      env[existing] = value;
      return;
    }
  }
  env[key] = value;
}

/** "exited with code 1", "was killed by SIGKILL", ... */
export function describeAgentExit(exit: Pick<AgentExit, 'code' | 'signal'>): string {
  if (exit.signal) return `was ended by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}
