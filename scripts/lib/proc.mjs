// Process helpers for the runners: run a command with its output teed and captured, track long-lived
// children, and always kill whole process trees (code-server forks an extension host, pty hosts and
// file watchers; Chromium forks renderers and a GPU process).
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const cleanups = new Set();
let handlersInstalled = false;

/** Registers fn to run before the process ends: normal end, error, Ctrl+C, SIGTERM, timeout. */
export function onCleanup(fn) {
  installHandlers();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

let cleaning = null;

/**
 * Runs every registered cleanup once (in reverse order of registration). Concurrent calls (a signal
 * arriving while the runner is already cleaning up) share the same run.
 */
export function cleanupAll() {
  cleaning ??= (async () => {
    while (cleanups.size) {
      const fns = [...cleanups].reverse();
      cleanups.clear();
      for (const fn of fns) {
        try {
          await fn();
        } catch (err) {
          console.error(`cleanup failed: ${err?.message ?? err}`);
        }
      }
    }
  })().finally(() => {
    cleaning = null;
  });
  return cleaning;
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    process.on(sig, () => {
      console.error(`\n${sig}: stopping and cleaning up…`);
      cleanupAll().finally(() => process.exit(code));
    });
  }
  // Last resort: synchronous SIGKILL of every tracked tree if the process exits without cleanupAll().
  process.on('exit', () => {
    for (const pid of tracked) killTreeSync(pid);
  });
}

const tracked = new Set();

function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Every descendant of pid (children first found by ppid, recursively). */
export function descendants(pid) {
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = new Map();
  for (const line of out.split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    if (!p) continue;
    if (!children.has(pp)) children.set(pp, []);
    children.get(pp).push(p);
  }
  const result = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of children.get(stack.pop()) ?? []) {
      result.push(c);
      stack.push(c);
    }
  }
  return result;
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

/** SIGTERM the tree rooted at pid (and its process group), then SIGKILL what is left after graceMs. */
export async function killTree(pid, { graceMs = 3000 } = {}) {
  if (!pid) return;
  tracked.delete(pid);
  const pids = [pid, ...descendants(pid)];
  signal(-pid, 'SIGTERM');
  for (const p of pids) signal(p, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(isAlive)) await sleep(100);
  const left = [...new Set([...pids, ...pids.flatMap((p) => (isAlive(p) ? descendants(p) : []))])].filter(isAlive);
  signal(-pid, 'SIGKILL');
  for (const p of left) signal(p, 'SIGKILL');
}

export function killTreeSync(pid) {
  if (!pid) return;
  const pids = [pid, ...descendants(pid)];
  signal(-pid, 'SIGKILL');
  for (const p of pids) signal(p, 'SIGKILL');
}

/** An environment for children without variables that would make code-server reuse another instance. */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const k of Object.keys(env)) {
    if (k.startsWith('VSCODE_') && !k.startsWith('VSCODE_EXECUTABLE')) delete env[k];
  }
  delete env.ELECTRON_RUN_AS_NODE;
  return env;
}

/**
 * Starts a long-lived child in its own process group, tracked so that it is killed (whole tree) on
 * exit. Returns the ChildProcess; its output is captured in child.output and optionally written to
 * `log` (a function).
 */
export function startTracked(cmd, args, { cwd, env, log } = {}) {
  installHandlers();
  const child = spawn(cmd, args, { cwd, env: env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  tracked.add(child.pid);
  child.output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (d) => {
      child.output += d;
      log?.(d);
    });
  }
  child.exited = new Promise((res) => child.on('exit', (code, sig) => res({ code, signal: sig })));
  child.stop = () => killTree(child.pid);
  return child;
}

/**
 * Runs a command to completion. Output goes to our stdout/stderr (unless quiet) and to onOutput as it
 * comes, and is also returned. Never throws for a non-zero exit: returns {code, output}. Killed as a tree
 * after timeoutMs.
 */
export function run(cmd, args, { cwd, env, quiet = false, timeoutMs = 0, input, onOutput } = {}) {
  installHandlers();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, detached: true, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    tracked.add(child.pid);
    if (input !== undefined) child.stdin.end(input);
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (d) => {
      output += d;
      onOutput?.(d);
      if (!quiet) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      onOutput?.(d);
      if (!quiet) process.stderr.write(d);
    });
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          process.stderr.write(`\n${cmd} ${args.join(' ')}: timed out after ${Math.round(timeoutMs / 1000)} s, killing it\n`);
          killTree(child.pid);
        }, timeoutMs)
      : null;
    child.on('error', (err) => {
      output += String(err);
      if (!quiet) process.stderr.write(`${cmd}: ${err.message}\n`);
    });
    child.on('close', (code, sig) => {
      if (timer) clearTimeout(timer);
      tracked.delete(child.pid);
      // The command is done; anything it left behind in its group goes too.
      killTreeSync(child.pid);
      resolve({ code: code ?? (sig ? 1 : 0), signal: sig, output, timedOut });
    });
  });
}

export { sleep };
