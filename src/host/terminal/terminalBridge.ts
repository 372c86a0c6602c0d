/**
 * terminal/* for the agent: each terminal is a child process (terminalProcess.ts) shown in a VS Code
 * terminal (terminalPty.ts), with a bounded, ANSI-stripped output buffer (terminalOutputBuffer.ts) that
 * terminal/output returns and the chat shows live.
 *
 * Lifecycle: create -> output / wait_for_exit / kill -> release (kills if running, frees the id). After
 * release the output stays readable through getOutput() and onDidRelease, and the VS Code terminal stays
 * open (the last few per session), so the user can still read it. disposeSession() kills everything.
 */
import * as vscode from 'vscode';
import { promises as fsp } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  KillTerminalRequest,
  KillTerminalResponse,
  ReleaseTerminalRequest,
  ReleaseTerminalResponse,
  TerminalOutputRequest,
  TerminalOutputResponse,
  WaitForTerminalExitRequest,
  WaitForTerminalExitResponse,
} from '../../acp';
import { invalidParams } from '../../acp';
import type { FileConfinement, SessionRoots } from '../fs/fileConfinement';
import { AnsiStripper } from '../../shared/ansi';
import { TerminalOutputBuffer, effectiveOutputLimit } from './terminalOutputBuffer';
import type { ExitStatus, TerminalProcess } from './terminalProcess';
import type { AgentPseudoterminal } from './terminalPty';

/** The process and pseudoterminal code load with the first terminal/create: most agents run their shells themselves. */
const loadRunners = async () => {
  const [{ TerminalProcess }, { AgentPseudoterminal }] = await Promise.all([import('./terminalProcess'), import('./terminalPty')]);
  return { TerminalProcess, AgentPseudoterminal };
};
type Runners = Awaited<ReturnType<typeof loadRunners>>;

export interface TerminalBridgeOptions {
  /** Confines the cwd like file reads; also knows each session's folders (the default cwd). */
  confinement: FileConfinement;
  /** Live (unreleased) terminals per session; terminal/create beyond it gets -32602. Default 16. */
  maxTerminalsPerSession?: number;
  /** Released terminals whose VS Code terminal stays open, per session. Default 3. */
  keepReleasedTerminals?: number;
  /** Tests may replace it; default vscode.window.createTerminal. */
  createTerminal?: (options: vscode.ExtensionTerminalOptions) => vscode.Terminal;
}

/** What the bridge knows of the session a terminal/create belongs to, passed down with the request. */
export interface TerminalRequestContext {
  roots: SessionRoots;
  /** The terminal's title, e.g. the tool call's title; default "Agent: <command line>". */
  name?: string;
  /** Reveal the terminal panel (without taking focus). Default false: the chat card shows the output. */
  show?: boolean;
}

export interface TerminalOutputEvent {
  sessionId: string;
  terminalId: string;
  /** ANSI-stripped text, in order. */
  text: string;
}

export interface TerminalExitEvent {
  sessionId: string;
  terminalId: string;
  exitStatus: ExitStatus;
}

export interface TerminalSnapshot {
  sessionId: string;
  terminalId: string;
  output: string;
  truncated: boolean;
  exitStatus?: ExitStatus;
  released: boolean;
  /** Its VS Code terminal is still open (reveal() can show it). */
  open: boolean;
}

export interface TerminalOpenEvent {
  sessionId: string;
  terminalId: string;
  open: boolean;
}

interface Entry {
  sessionId: string;
  terminalId: string;
  buffer: TerminalOutputBuffer;
  stripper: AnsiStripper;
  proc: TerminalProcess;
  pty: AgentPseudoterminal;
  terminal: vscode.Terminal;
  released: boolean;
  terminalOpen: boolean;
}

const MAX_RETAINED_RELEASED = 32;
const MAX_RETAINED_BYTES = 32 * 1024 * 1024;

export class TerminalBridge implements vscode.Disposable {
  private readonly live = new Map<string, Entry>();
  private readonly released = new Map<string, Entry>(); // insertion order = age
  private readonly outputEmitter = new vscode.EventEmitter<TerminalOutputEvent>();
  private readonly exitEmitter = new vscode.EventEmitter<TerminalExitEvent>();
  private readonly releaseEmitter = new vscode.EventEmitter<TerminalSnapshot>();
  private readonly openEmitter = new vscode.EventEmitter<TerminalOpenEvent>();
  /** Live output chunks for the chat's terminal cards. */
  readonly onDidOutput = this.outputEmitter.event;
  readonly onDidExit = this.exitEmitter.event;
  /** Fired at release with the output so far; later output (a dying process) still comes via onDidOutput. */
  readonly onDidRelease = this.releaseEmitter.event;
  /** Its VS Code terminal was created (open) or closed, by the user, a trim or the session's end. */
  readonly onDidChangeOpen = this.openEmitter.event;

  // VS Code calls the pty's close() only for a terminal whose pty it opened; a terminal closed before
  // that (or in a workbench that skips it) is still caught here, so its process never outlives it.
  private readonly closeSubscription = vscode.window.onDidCloseTerminal((t) => this.terminalClosed(t));

  constructor(private readonly opts: TerminalBridgeOptions) {}

  async create(req: CreateTerminalRequest, context: TerminalRequestContext): Promise<CreateTerminalResponse> {
    if (typeof req.command !== 'string' || req.command.trim() === '') {
      throw invalidParams('terminal/create needs a command', { reason: 'bad_command' });
    }
    const runners = await loadRunners();
    const { roots } = context;
    const cwd = await this.opts.confinement.authorize({ sessionId: req.sessionId, roots }, req.cwd ?? roots.cwd, 'read');
    const stat = await fsp.stat(cwd).catch(() => undefined);
    if (!stat?.isDirectory()) throw invalidParams(`cwd is not a directory: ${cwd}`, { reason: 'bad_cwd', path: cwd });
    const max = this.opts.maxTerminalsPerSession ?? 16;
    if (this.liveCount(req.sessionId) >= max) {
      throw invalidParams(`Too many terminals in this session (at most ${max}); release some first`, { reason: 'terminal_limit', max });
    }
    const args = (req.args ?? []).map(String);
    const env: Record<string, string> = {};
    for (const v of req.env ?? []) env[String(v.name)] = String(v.value);

    const terminalId = `term_${randomUUID()}`;
    const entry = this.start(runners, req.sessionId, terminalId, { command: req.command, args, env, cwd }, req.outputByteLimit);
    const name = context.name?.trim() || `Agent: ${[req.command, ...args].join(' ')}`.slice(0, 80);
    const make = this.opts.createTerminal ?? ((o: vscode.ExtensionTerminalOptions) => vscode.window.createTerminal(o));
    try {
      entry.terminal = make({ name, pty: entry.pty, isTransient: true, iconPath: new vscode.ThemeIcon('hubot') });
    } catch (e) {
      this.live.delete(terminalId); // never started: nothing to kill
      throw e;
    }
    if (context.show) entry.terminal.show(true);
    this.openEmitter.fire({ sessionId: req.sessionId, terminalId, open: true });
    entry.proc.start();
    return { terminalId };
  }

  output(req: TerminalOutputRequest): TerminalOutputResponse {
    const e = this.get(req.sessionId, req.terminalId);
    const status = e.proc.exitStatus;
    return { output: e.buffer.toString(), truncated: e.buffer.truncated, ...(status ? { exitStatus: { ...status } } : {}) };
  }

  async waitForExit(req: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse> {
    const status = await this.get(req.sessionId, req.terminalId).proc.waitForExit();
    return { ...status };
  }

  kill(req: KillTerminalRequest): KillTerminalResponse {
    this.get(req.sessionId, req.terminalId).proc.kill();
    return {};
  }

  release(req: ReleaseTerminalRequest): ReleaseTerminalResponse {
    const e = this.get(req.sessionId, req.terminalId);
    if (!e.proc.exitStatus) e.proc.kill();
    this.live.delete(e.terminalId);
    e.released = true;
    this.released.set(e.terminalId, e);
    this.releaseEmitter.fire(this.snapshot(e));
    this.trimReleased(e.sessionId);
    return {};
  }

  /** Output of a live or recently released terminal, for the chat; undefined once forgotten. */
  getOutput(terminalId: string): TerminalSnapshot | undefined {
    const e = this.live.get(terminalId) ?? this.released.get(terminalId);
    return e && this.snapshot(e);
  }

  /** Shows (and focuses) the VS Code terminal of a session's terminal; false when it is closed or unknown. */
  reveal(sessionId: string, terminalId: string): boolean {
    const e = this.live.get(terminalId) ?? this.released.get(terminalId);
    if (!e?.terminalOpen || e.sessionId !== sessionId) return false;
    e.terminal.show(false);
    return true;
  }

  /** Agent stopped or session closed: kill every process of the session and close its terminals. */
  disposeSession(sessionId: string): void {
    for (const map of [this.live, this.released]) {
      for (const e of [...map.values()]) {
        if (e.sessionId !== sessionId) continue;
        if (!e.proc.exitStatus) e.proc.kill();
        this.closeTerminal(e);
        map.delete(e.terminalId);
      }
    }
  }

  dispose(): void {
    const sessions = new Set([...this.live.values(), ...this.released.values()].map((e) => e.sessionId));
    for (const s of sessions) this.disposeSession(s);
    this.closeSubscription.dispose();
    this.outputEmitter.dispose();
    this.exitEmitter.dispose();
    this.releaseEmitter.dispose();
    this.openEmitter.dispose();
  }

  private terminalClosed(terminal: vscode.Terminal): void {
    for (const e of [...this.live.values(), ...this.released.values()]) {
      if (e.terminal === terminal && e.terminalOpen) e.pty.close();
    }
  }

  private start(
    { TerminalProcess, AgentPseudoterminal }: Runners,
    sessionId: string,
    terminalId: string,
    spec: ConstructorParameters<typeof TerminalProcess>[0],
    limit: number | null | undefined,
  ): Entry {
    const buffer = new TerminalOutputBuffer(effectiveOutputLimit(limit));
    const stripper = new AnsiStripper('keep'); // terminal/output keeps \r\n as the program wrote it
    const entry = { sessionId, terminalId, buffer, stripper, released: false, terminalOpen: true } as Entry;
    const emit = (text: string): void => {
      if (!text) return;
      buffer.append(text);
      this.outputEmitter.fire({ sessionId, terminalId, text });
    };
    entry.proc = new TerminalProcess(spec, {
      onText: (text) => {
        entry.pty.write(text);
        emit(stripper.push(text));
      },
      onExit: (status) => {
        emit(stripper.flush());
        entry.pty.writeNotice(status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`);
        this.exitEmitter.fire({ sessionId, terminalId, exitStatus: status });
      },
    });
    entry.pty = new AgentPseudoterminal({
      input: (d) => entry.proc.write(d),
      interrupt: () => entry.proc.interrupt(),
      closedByUser: () => {
        // Closing the terminal ends its process; the id stays valid for the agent to read the result.
        entry.terminalOpen = false;
        this.openEmitter.fire({ sessionId, terminalId, open: false });
        entry.proc.kill();
      },
    });
    this.live.set(terminalId, entry);
    return entry;
  }

  private get(sessionId: string, terminalId: string): Entry {
    const e = this.live.get(terminalId);
    if (!e || e.sessionId !== sessionId) {
      const why = this.released.has(terminalId) ? 'was released' : 'is unknown';
      throw invalidParams(`Terminal ${terminalId} ${why}`, { reason: 'unknown_terminal', terminalId });
    }
    return e;
  }

  private liveCount(sessionId: string): number {
    let n = 0;
    for (const e of this.live.values()) if (e.sessionId === sessionId) n++;
    return n;
  }

  private snapshot(e: Entry): TerminalSnapshot {
    const status = e.proc.exitStatus;
    return {
      sessionId: e.sessionId,
      terminalId: e.terminalId,
      output: e.buffer.toString(),
      truncated: e.buffer.truncated,
      ...(status ? { exitStatus: { ...status } } : {}),
      released: e.released,
      open: e.terminalOpen,
    };
  }

  /** Closes the oldest released terminals beyond the per-session and global caps. */
  private trimReleased(sessionId: string): void {
    const keep = this.opts.keepReleasedTerminals ?? 3;
    const ofSession = [...this.released.values()].filter((e) => e.sessionId === sessionId && e.terminalOpen);
    for (const e of ofSession.slice(0, Math.max(0, ofSession.length - keep))) this.closeTerminal(e);
    let bytes = 0;
    for (const e of this.released.values()) bytes += e.buffer.byteLength;
    for (const e of [...this.released.values()]) {
      if (this.released.size <= MAX_RETAINED_RELEASED && bytes <= MAX_RETAINED_BYTES) break;
      bytes -= e.buffer.byteLength;
      this.closeTerminal(e);
      this.released.delete(e.terminalId);
    }
  }

  private closeTerminal(e: Entry): void {
    if (!e.terminalOpen) return;
    e.terminalOpen = false;
    e.pty.dispose();
    e.terminal.dispose();
    this.openEmitter.fire({ sessionId: e.sessionId, terminalId: e.terminalId, open: false });
  }
}
