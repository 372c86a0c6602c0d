import { execFile } from 'child_process';
import { promises as fsp, readdirSync, readFileSync } from 'fs';

/*
 * Killing only the direct child is not enough: `npx` (and other wrappers) start the real agent as a
 * grandchild, and killing the wrapper orphans it. We walk the tree ourselves (/proc on Linux, `ps`
 * elsewhere, `taskkill /T` on Windows) and remember each process's start time so a recycled pid is
 * never signalled. A daemon that left the tree and the group before we looked (double fork + setsid,
 * as Cline's hub daemon does) is still found on Linux by a variable in the environment it inherited.
 */

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** Kernel start time (Linux, clock ticks since boot) to detect pid reuse; undefined elsewhere. */
  readonly startTime: number | undefined;
}

/** Every live process (zombies excluded) with its parent and process group. */
export async function listProcesses(platform: NodeJS.Platform = process.platform): Promise<ProcessEntry[]> {
  if (platform === 'linux') return listFromProc();
  if (platform === 'win32') return [];
  return listFromPs();
}

/** `rootPid`'s descendants (children, grandchildren, ...), not including the root itself. */
export async function listDescendants(rootPid: number, platform: NodeJS.Platform = process.platform): Promise<ProcessEntry[]> {
  return descendantsOf([rootPid], await listProcesses(platform));
}

export function descendantsOf(rootPids: readonly number[], processes: readonly ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of processes) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const result: ProcessEntry[] = [];
  const seen = new Set<number>(rootPids);
  const queue = [...rootPids];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      result.push(child);
      queue.push(child.pid);
    }
  }
  return result;
}

/**
 * True while the process exists and is not a zombie. (`process.kill(pid, 0)` alone says a zombie is
 * alive; an orphan whose reaper is slow stays a zombie for a while although it runs nothing.)
 */
export function isProcessAlive(pid: number, platform: NodeJS.Platform = process.platform): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (platform !== 'linux') return true;
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/**
 * Sends `signal` to `pid` and every descendant. Never throws for processes that are already gone.
 * On Windows, where signals do not exist, the tree is ended with `taskkill /T /F`.
 * Returns the pids that were signalled.
 */
export async function killProcessTree(pid: number, signal: NodeJS.Signals = 'SIGTERM', options: Omit<SignalTreesOptions, 'roots'> = {}): Promise<number[]> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    await taskkillTree(pid);
    return [pid];
  }
  return signalProcessTrees(signal, { ...options, roots: [pid] });
}

export interface SignalTreesOptions {
  /** Live processes whose subtrees are signalled (with themselves). */
  readonly roots?: readonly number[];
  /**
   * Processes remembered from an earlier snapshot (e.g. before the root exited and its children
   * were re-parented): signalled with their subtrees if they are still the same processes.
   */
  readonly knownProcesses?: readonly ProcessEntry[];
  /** Also signal every member of this process group. */
  readonly processGroup?: number;
  /** Linux: also signal every process whose environment holds this variable (and its subtree). */
  readonly envTag?: EnvTag;
  readonly platform?: NodeJS.Platform;
}

/** A `name=value` pair set in a process's environment at spawn, inherited by whatever it starts. */
export interface EnvTag {
  readonly name: string;
  readonly value: string;
}

/** POSIX: sends `signal` to the roots, the known processes, their descendants and the group. */
export async function signalProcessTrees(signal: NodeJS.Signals, options: SignalTreesOptions): Promise<number[]> {
  const platform = options.platform ?? process.platform;
  const processes = await listProcesses(platform);
  const live = new Map(processes.map((entry) => [entry.pid, entry]));
  // A remembered process is only ours if it is the same process: same pid AND same start time.
  const known = (options.knownProcesses ?? []).filter((entry) => {
    const now = live.get(entry.pid);
    return now !== undefined && (entry.startTime === undefined || now.startTime === entry.startTime);
  });
  const tagged = options.envTag && platform === 'linux' ? await taggedAmong(processes, options.envTag) : [];
  const roots = [...(options.roots ?? []), ...known.map((entry) => entry.pid), ...tagged];
  const targets = new Set<number>([...roots, ...descendantsOf(roots, processes).map((entry) => entry.pid)]);
  if (options.processGroup !== undefined) {
    for (const entry of processes) if (entry.pgid === options.processGroup) targets.add(entry.pid);
    signalQuietly(-options.processGroup, signal);
  }
  const signalled: number[] = [];
  for (const target of targets) if (signalQuietly(target, signal)) signalled.push(target);
  return signalled;
}

/** Linux: those of `processes` whose environment holds `tag` (processes of other users cannot be read: skipped). */
async function taggedAmong(processes: readonly ProcessEntry[], tag: EnvTag): Promise<number[]> {
  const needle = `${tag.name}=${tag.value}`;
  const found = await Promise.all(
    processes.map(async (entry) => {
      try {
        const environ = await fsp.readFile(`/proc/${entry.pid}/environ`, 'utf8');
        return environ.split('\0').includes(needle) ? entry.pid : undefined;
      } catch {
        return undefined; // exited meanwhile, or not ours to read
      }
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined);
}

/**
 * Synchronous, for the last moments of an extension host that is exiting (no later tick is guaranteed):
 * SIGKILLs process group `processGroup` and (Linux) every process whose environment holds `tag`.
 * Returns the tagged pids that were signalled.
 */
export function killTreeNowSync(tag: EnvTag, processGroup: number | undefined, platform: NodeJS.Platform = process.platform): number[] {
  if (platform === 'win32') return [];
  if (processGroup !== undefined) signalQuietly(-processGroup, 'SIGKILL');
  if (platform !== 'linux') return [];
  const needle = `${tag.name}=${tag.value}`;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const signalled: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'utf8');
    } catch {
      continue; // exited meanwhile, or not ours to read
    }
    if (environ.split('\0').includes(needle) && signalQuietly(Number(name), 'SIGKILL')) signalled.push(Number(name));
  }
  return signalled;
}

/** Polls until none of `pids` is alive (true) or the timeout passes (false). */
export async function waitForProcessesToExit(pids: readonly number[], timeoutMs: number, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pids.every((pid) => !isProcessAlive(pid, platform))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
}

function signalQuietly(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // ESRCH: already gone; EPERM: not ours to kill
  }
}

async function listFromProc(): Promise<ProcessEntry[]> {
  let names: string[];
  try {
    names = await fsp.readdir('/proc');
  } catch {
    return listFromPs();
  }
  const entries = await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name): Promise<ProcessEntry | undefined> => {
        try {
          const stat = parseStat(await fsp.readFile(`/proc/${name}/stat`, 'utf8'));
          if (!stat || stat.state === 'Z' || stat.state === 'X') return undefined;
          return { pid: Number(name), ppid: stat.ppid, pgid: stat.pgid, startTime: stat.startTime };
        } catch {
          return undefined; // exited while we were reading
        }
      }),
  );
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  readonly startTime: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat: "pid (comm) state ppid pgrp session ... starttime(22nd) ..."; comm may hold spaces and parens. */
function parseStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state), so field N is fields[N - 3].
  return { state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: Number(fields[19]) };
}

function listFromPs(): Promise<ProcessEntry[]> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) {
        resolve([]);
        return;
      }
      const entries: ProcessEntry[] = [];
      for (const line of stdout.split('\n')) {
        const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
        if (match && !match[4].startsWith('Z')) {
          entries.push({ pid: Number(match[1]), ppid: Number(match[2]), pgid: Number(match[3]), startTime: undefined });
        }
      }
      resolve(entries);
    });
  });
}

function taskkillTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    // Exit code 128 means "no such process": fine, it is gone either way.
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
  });
}
