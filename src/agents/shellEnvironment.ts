import { spawn } from 'child_process';
import { randomBytes } from 'crypto';
import * as path from 'path';
import { silentLogger, type AgentLogger } from './logger';
import { signalProcessTrees } from './processTree';

/*
 * VS Code started from a desktop icon or the Dock inherits the session's environment, not the one
 * the user's shell builds in ~/.zshrc / ~/.bash_profile (nvm, volta, asdf, Homebrew...). So `npx`
 * or `gemini` that work in a terminal are "not found". Like VS Code's own terminal resolver, we run
 * the login shell once, interactively, and read the environment it ends up with.
 */

export interface LoginShellEnvironment {
  /** The environment to use (the login shell's, or the process's own as a fallback). */
  readonly env: Readonly<Record<string, string>>;
  readonly source: 'login-shell' | 'process';
  /** Why the fallback was used (timeout, shell error, Windows...). */
  readonly reason?: string;
}

export interface LoginShellOptions {
  /** Default: $SHELL, else /bin/zsh on macOS and /bin/sh elsewhere. */
  readonly shell?: string;
  /** Give up after this long (rc files can hang or be slow); default 10 s. */
  readonly timeoutMs?: number;
  readonly logger?: AgentLogger;
  readonly platform?: NodeJS.Platform;
  /** The environment the shell starts from (default: process.env). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  /**
   * A Node executable the shell runs to print its environment as JSON (default: process.execPath;
   * in VS Code that is the Electron binary, run as Node through ELECTRON_RUN_AS_NODE).
   */
  readonly nodeExecutable?: string;
}

/** Variables we set only to run the probe; never handed on to agents. */
const PROBE_VARIABLES = ['ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE', 'VSCODE_RESOLVING_ENVIRONMENT'];

/**
 * Runs `$SHELL -ilc '<node> -e <print env between markers>'` and parses what is between the
 * markers (rc files may print banners before and after). Never rejects: on any failure, returns
 * the process environment with a reason, and logs a warning.
 */
export async function readLoginShellEnvironment(options: LoginShellOptions = {}): Promise<LoginShellEnvironment> {
  const platform = options.platform ?? process.platform;
  const baseEnv = options.baseEnv ?? process.env;
  const logger = options.logger ?? silentLogger;
  const fallback = (reason: string): LoginShellEnvironment => ({ env: definedOnly(baseEnv), source: 'process', reason });

  if (platform === 'win32') return fallback('Windows programs inherit the user PATH; no login shell is needed');
  const shell = options.shell ?? baseEnv.SHELL ?? (platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const marker = `__SWITCHBOARD_ENV_${randomBytes(8).toString('hex')}__`;
  const node = options.nodeExecutable ?? process.execPath;
  const script = `process.stdout.write("${marker}"+JSON.stringify(process.env)+"${marker}")`;
  const command = `${shellQuote(node)} -e ${shellQuote(script)}`;

  const result = await runShell(shell, shellArguments(shell, command), {
    ...definedOnly(baseEnv),
    ELECTRON_RUN_AS_NODE: '1',
    ELECTRON_NO_ATTACH_CONSOLE: '1',
    // The convention VS Code uses: rc files can test it and skip slow or interactive setup.
    VSCODE_RESOLVING_ENVIRONMENT: '1',
  }, timeoutMs, platform, marker);

  const failure = (reason: string) => {
    logger.warn(`Could not read the login shell environment (${reason}); agents get VS Code's own PATH.`);
    return fallback(reason);
  };
  if (result.kind === 'timeout') return failure(`${shell} took longer than ${timeoutMs} ms`);
  if (result.kind === 'error') return failure(`${shell} could not be started: ${result.message}`);
  const start = result.stdout.indexOf(marker);
  const end = result.stdout.lastIndexOf(marker);
  if (start < 0 || end <= start) {
    const detail = result.stderr.trim().split('\n').slice(-3).join(' | ');
    return failure(`${shell} exited with ${result.signal ?? `code ${result.code}`} without printing its environment${detail ? `: ${detail}` : ''}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout.slice(start + marker.length, end));
  } catch (error) {
    return failure(`its output was not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) return failure('its output was not an object');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') env[key] = value;
  for (const key of PROBE_VARIABLES) {
    const original = baseEnv[key];
    if (original === undefined) delete env[key];
    else env[key] = original;
  }
  logger.info(`Read the environment of the login shell ${shell} (PATH=${env.PATH ?? ''}).`);
  return { env, source: 'login-shell' };
}

/** Flags that make the shell read the user's login and interactive rc files, then run `command`. */
export function shellArguments(shell: string, command: string): string[] {
  const name = path.basename(shell).replace(/\.exe$/i, '');
  // csh/tcsh cannot combine -l with other flags; -i alone makes them read ~/.cshrc / ~/.tcshrc.
  if (name === 'csh' || name === 'tcsh') return ['-ic', command];
  // nushell spells it differently.
  if (name === 'nu') return ['-l', '-i', '-c', command];
  return ['-i', '-l', '-c', command];
}

/** POSIX single-quoting (also valid in fish, zsh, csh for our characters). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

type ShellResult =
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

function runShell(shell: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, platform: NodeJS.Platform, doneMarker: string): Promise<ShellResult> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: ShellResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // Own process group, so a hung rc file and anything it started can be ended together.
    const child = spawn(shell, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      // Done as soon as the probe's output is complete: a daemon started by an rc file may keep
      // the pipe open long after the shell exits.
      const text = Buffer.concat(stdout).toString('utf8');
      const first = text.indexOf(doneMarker);
      if (first >= 0 && text.indexOf(doneMarker, first + doneMarker.length) >= 0) {
        settle({ kind: 'exit', code: null, signal: null, stdout: text, stderr: Buffer.concat(stderr).toString('utf8') });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes < 64 * 1024) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on('error', (error) => settle({ kind: 'error', message: error.message }));
    // 'close' (not 'exit'): when the markers never come, all output is needed for the message.
    child.on('close', (code, signal) =>
      settle({ kind: 'exit', code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
      if (child.pid !== undefined) void signalProcessTrees('SIGKILL', { roots: [child.pid], processGroup: child.pid, platform });
    }, timeoutMs);
  });
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return result;
}
