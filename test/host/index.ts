// The mocha runner that VS Code executes inside the extension host (extensionTestsPath points at the
// compiled out/test/host/index.js). It runs every out/test/host/**/*.test.js, streams mocha's output to
// a log file, writes a results file the outer runner (scripts/run-host-tests.mjs) waits for, and rejects
// when a test failed (so @vscode/test-electron also sees a non-zero exit).
//
// Environment, set by the outer runner:
//   SWITCHBOARD_TEST_RESULTS  results JSON path (the log is the same path with .log)
//   SWITCHBOARD_TEST_GREP     only run tests whose full title matches (mocha --grep)
//   SWITCHBOARD_TEST_COLOR    "1" for coloured mocha output
//   SWITCHBOARD_TEST_HOST     "code-server" or "electron"
//   SWITCHBOARD_TEST_WORKSPACE "multi-root" (a .code-workspace of two folders is open): only the files
//                             under multiRoot/ run; otherwise every file but those
//   SWITCHBOARD_TEST_USER_DATA the window's user data folder (its logs/ has Switchboard's log channel)
//
// Helpers for host tests are exported at the bottom (import them from './index').
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as util from 'util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export interface HostTestResults {
  passed: number;
  failed: number;
  pending: number;
  total: number;
  durationMs: number;
  vscodeVersion: string;
  appName: string;
  failures: { title: string; error: string }[];
  /** Set when the run itself broke (a test file threw while loading, mocha crashed). */
  error?: string;
}

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

function writeAtomically(file: string, data: string): void {
  fs.writeFileSync(`${file}.tmp`, data);
  fs.renameSync(`${file}.tmp`, file);
}

export async function run(): Promise<void> {
  const resultsFile = process.env.SWITCHBOARD_TEST_RESULTS ?? path.join(os.tmpdir(), 'switchboard-host-results.json');
  const logFile = resultsFile.replace(/\.json$/, '') + '.log';
  const started = Date.now();
  fs.writeFileSync(logFile, '');
  const log = (...args: unknown[]): void => fs.appendFileSync(logFile, util.format(...args) + '\n');
  writeAtomically(`${resultsFile}.started`, JSON.stringify({ pid: process.pid, vscodeVersion: vscode.version }));

  const results: HostTestResults = {
    passed: 0,
    failed: 0,
    pending: 0,
    total: 0,
    durationMs: 0,
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    failures: [],
  };

  // Mocha's reporters print through Base.consoleLog; send it to the log file the outer runner tails.
  const Base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void; useColors: boolean };
  Base.consoleLog = log;
  Base.useColors = process.env.SWITCHBOARD_TEST_COLOR === '1';

  // The spec reporter, then the slowest files and tests of the run.
  const reporter = path.join(repoRoot, 'scripts', 'lib', 'timed-spec-reporter.cjs');
  const mocha = new Mocha({ ui: 'bdd', reporter, timeout: 30_000, color: Base.useColors });
  if (process.env.SWITCHBOARD_TEST_GREP) mocha.grep(process.env.SWITCHBOARD_TEST_GREP);
  try {
    const multiRoot = path.join(__dirname, 'multiRoot') + path.sep;
    const wantMultiRoot = process.env.SWITCHBOARD_TEST_WORKSPACE === 'multi-root';
    const files = findTests(__dirname).filter((f) => f.startsWith(multiRoot) === wantMultiRoot);
    log(`VS Code ${vscode.version} (${vscode.env.appName}), ${files.length} host test file(s)`);
    for (const f of files) mocha.addFile(f);
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', () => results.passed++);
      runner.on('pending', () => results.pending++);
      runner.on('fail', (test, err: Error) => {
        results.failed++;
        results.failures.push({ title: test.fullTitle(), error: err?.stack ?? String(err) });
      });
    });
  } catch (err) {
    // A test file that throws while loading lands here: report it as a failure, never as silence.
    results.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    results.failed = Math.max(results.failed, 1);
    log(`\nhost test run broke: ${results.error}`);
    log(`\n  ${results.passed} passing\n  ${results.failed} failing`);
  }
  results.total = results.passed + results.failed + results.pending;
  results.durationMs = Date.now() - started;
  writeAtomically(resultsFile, JSON.stringify(results, null, 2));
  if (results.failed > 0) throw new Error(`${results.failed} host test(s) failed`);
}

// ---------------------------------------------------------------------------------------------------
// Helpers for host tests.

/**
 * Sets settings through the configuration API (e.g. `{'switchboard.trace': 'verbose'}`), at the user
 * (Global) level unless told otherwise, and returns a function that puts the previous values back.
 *
 *   let restore: () => Promise<void>;
 *   before(async () => { restore = await setSettings({ 'switchboard.agents': { Fake: { command: node, args: [agent] } } }); });
 *   after(() => restore());
 */
export async function setSettings(
  values: Record<string, unknown>,
  target: vscode.ConfigurationTarget = vscode.ConfigurationTarget.Global,
): Promise<() => Promise<void>> {
  const previous: [string, unknown][] = [];
  for (const [key, value] of Object.entries(values)) {
    const dot = key.lastIndexOf('.');
    const config = vscode.workspace.getConfiguration(key.slice(0, dot));
    const name = key.slice(dot + 1);
    const inspected = config.inspect(name);
    const old =
      target === vscode.ConfigurationTarget.Global
        ? inspected?.globalValue
        : target === vscode.ConfigurationTarget.Workspace
          ? inspected?.workspaceValue
          : inspected?.workspaceFolderValue;
    previous.push([key, old]);
    await config.update(name, value, target);
  }
  return async () => {
    for (const [key, old] of previous.reverse()) {
      const dot = key.lastIndexOf('.');
      await vscode.workspace.getConfiguration(key.slice(0, dot)).update(key.slice(dot + 1), old, target);
    }
  };
}

/** Polls `check` until it returns a truthy value (returned) or the timeout passes (throws `what`); the default is generous for a loaded machine. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Switchboard extension as VS Code sees it (its packageJSON is the manifest). */
export function switchboardExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension('switchboard-dev.switchboard');
  if (!ext) throw new Error('extension switchboard-dev.switchboard is not installed in this extension host');
  return ext;
}

/**
 * What Switchboard's log channel ("Switchboard", a LogOutputChannel) has written so far in this window: its
 * files under the user data folder's logs/ (VS Code writes them a moment after the line is logged: poll).
 */
export function switchboardLog(): string {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && depth < 4) walk(full, depth + 1);
      else if (entry.name === 'Switchboard.log' && path.basename(dir).toLowerCase() === switchboardExtension().id.toLowerCase()) found.push(full);
    }
  };
  walk(path.join(process.env.SWITCHBOARD_TEST_USER_DATA ?? '', 'logs'), 0);
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/** Absolute path of the opened workspace folder (a temp copy of test/fixtures/workspace). */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder.uri.fsPath;
}

/** The repo root (the extension under development): for fixtures such as test/fixtures/agents. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
