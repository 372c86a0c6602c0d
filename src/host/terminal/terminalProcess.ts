/**
 * The process behind an agent terminal: spawn (no shell unless the command needs one), merged stdout/stderr
 * decoded as UTF-8 streams, exit status (127 for a missing command, like a shell), and a kill
 * of the whole process tree. Node only (no `vscode`), so it is unit-tested in plain Node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { killProcessTree, signalProcessTrees } from '../../agents';

export interface SpawnSpec {
  command: string;
  args: readonly string[];
  /** Added to (and overriding) the extension host's environment. */
  env: Readonly<Record<string, string>>;
  cwd: string;
}

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

export interface ProcessHandlers {
  /** Decoded output (stdout and stderr merged), raw: ANSI sequences and \n line ends as produced. */
  onText(text: string): void;
  onExit(status: ExitStatus): void;
}

const POSIX = process.platform !== 'win32';
/** After SIGTERM, the tree gets SIGKILL if still alive this much later. */
const KILL_GRACE_MS = 1500;
/** A grandchild may keep the pipes open after the command exited; don't wait for it longer than this. */
const DRAIN_AFTER_EXIT_MS = 300;
const SHELL_CHARS = /[\s|&;<>()$`\\"'*?[\]#~{}!]/;

/** Agents often send a whole command line as `command` with no args: that needs a shell. */
export function needsShell(command: string, args: readonly string[]): boolean {
  return args.length === 0 && SHELL_CHARS.test(command) && !existsSync(command);
}

function buildEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // The extension host runs as Node inside Electron; children (an Electron app, `code`) must not inherit that.
  if (!('ELECTRON_RUN_AS_NODE' in extra)) delete env.ELECTRON_RUN_AS_NODE;
  return env;
}

/**
 * Signals a process, its descendants and (POSIX) its process group. The tree is listed before anything is
 * signalled, so a grandchild that the dying child would orphan is still found. On Windows, where signals
 * do not exist, the tree is ended with `taskkill /T /F` (and `walkChildren: false`, an interrupt, does nothing).
 */
function signalTree(pid: number, signal: NodeJS.Signals, walkChildren: boolean): void {
  if (!POSIX) {
    if (walkChildren) void killProcessTree(pid, signal).catch(() => undefined);
    return;
  }
  if (walkChildren) {
    void signalProcessTrees(signal, { roots: [pid], processGroup: pid }).catch(() => undefined);
    return;
  }
  try {
    process.kill(-pid, signal); // the child was spawned detached: its group is the job
  } catch {
    // ESRCH: the group is already gone
  }
}

export class TerminalProcess {
  private child: ChildProcess | undefined;
  private status: ExitStatus | undefined;
  private exited = false; // the direct child is gone (status may wait for the pipes)
  private killTimer: NodeJS.Timeout | undefined;
  private readonly waiters: Array<(s: ExitStatus) => void> = [];

  constructor(
    private readonly spec: SpawnSpec,
    private readonly handlers: ProcessHandlers,
  ) {}

  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  start(): void {
    const { command, args, cwd } = this.spec;
    const shell = needsShell(command, args);
    const [file, argv] = shell && POSIX ? ['/bin/sh', ['-c', command]] : [command, [...args]];
    let child: ChildProcess;
    try {
      child = spawn(file, argv, { cwd, env: buildEnv(this.spec.env), detached: POSIX, shell: shell && !POSIX, windowsHide: true });
    } catch (e) {
      this.failToStart(e);
      return;
    }
    this.child = child;
    child.on('error', (e) => {
      if (child.pid === undefined) this.failToStart(e);
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      const decoder = new TextDecoder('utf-8'); // one per stream: their multi-byte characters interleave
      stream.on('data', (b: Buffer) => this.handlers.onText(decoder.decode(b, { stream: true })));
      stream.on('end', () => {
        const rest = decoder.decode();
        if (rest) this.handlers.onText(rest);
      });
    }
    child.stdin?.on('error', () => undefined); // EPIPE when the child does not read its input
    child.on('exit', (code, signal) => {
      this.exited = true;
      const status = { exitCode: code, signal };
      setTimeout(() => this.finish(status), DRAIN_AFTER_EXIT_MS).unref();
    });
    child.on('close', (code, signal) => this.finish({ exitCode: code, signal }));
  }

  waitForExit(): Promise<ExitStatus> {
    if (this.status) return Promise.resolve(this.status);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** terminal/kill: SIGTERM to the tree, SIGKILL to whatever is left after a grace period. */
  kill(): void {
    const pid = this.child?.pid;
    if (pid === undefined || this.killTimer) return;
    if (this.status && !POSIX) return;
    signalTree(pid, 'SIGTERM', !this.exited);
    this.killTimer = setTimeout(() => signalTree(pid, 'SIGKILL', !this.exited), KILL_GRACE_MS);
    this.killTimer.unref();
  }

  /** Ctrl+C typed in the terminal. */
  interrupt(): void {
    const pid = this.child?.pid;
    if (pid !== undefined && !this.status) signalTree(pid, 'SIGINT', false);
  }

  /** Keyboard input from the terminal; Ctrl+D ends the input. */
  write(input: string): void {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return;
    if (input === '\x04') stdin.end();
    else stdin.write(input);
  }

  private failToStart(e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code;
    const exitCode = code === 'EACCES' ? 126 : 127; // what a shell reports
    const why = code === 'ENOENT' ? 'command not found' : code === 'EACCES' ? 'permission denied' : String((e as Error).message ?? e);
    this.handlers.onText(`${this.spec.command}: ${why}\n`);
    this.finish({ exitCode, signal: null });
  }

  private finish(status: ExitStatus): void {
    if (this.status) return;
    this.status = status;
    this.exited = true;
    this.handlers.onExit(status);
    for (const w of this.waiters.splice(0)) w(status);
  }
}
