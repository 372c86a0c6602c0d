#!/usr/bin/env node
// Host tests: mocha inside a real VS Code extension host (test/host/index.ts runs every
// out/test/host/**/*.test.js).
//
// Where an Electron VS Code can be had (VSCODE_EXECUTABLE, or a download cached by @vscode/test-electron
// in .vscode-test/, plus a display), it uses @vscode/test-electron. Otherwise (no internet, as on CI) it
// uses code-server 4.100.3 (= VS Code 1.100.3) from ~/.cache/switchboard-test-host (installed when
// missing), started on a free loopback port with fresh user data and extensions dirs on a temp copy of
// test/fixtures/workspace, opened in headless Chromium with the extension-test payload URL. It waits for
// the results file written by the in-host runner, prints mocha's output, exits with its status, and always
// kills the code-server and Chromium process trees.
//
// Usage: node scripts/run-host-tests.mjs [--grep <pattern>] [--skip-build] [--trust] [--multi-root] [--keep]
//                                        [--timeout <seconds>] [--host code-server|electron]
//   --trust        start without --disable-workspace-trust (or SWITCHBOARD_HOST_TRUST=1)
//   --multi-root   open a .code-workspace with two folders (the sample workspace, then a small second
//                  folder) and run only test/host/multiRoot/ (those files never run in a one-folder window)
//   --keep         keep the temp dir (workspace, user data, logs) for inspection
// Env: SWITCHBOARD_TEST_HOST=code-server|electron forces the host; VSCODE_EXECUTABLE = Electron VS Code.
// Artifacts: test-results/host/ (code-server log, browser console, a screenshot when something failed);
// test-results/host-untrusted/ with --trust, test-results/host-multi-root/ with --multi-root (npm test runs
// them beside each other).
import { existsSync, readFileSync, readdirSync, mkdirSync, writeFileSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO, TEST_CHROMIUM, TEST_RESULTS } from './lib/paths.mjs';
import { run, onCleanup, cleanupAll, sleep, startTracked } from './lib/proc.mjs';
import { ensureCodeServer, startCodeServer, workbenchUrl, remoteUri, UNUSED_BUILTINS } from './lib/code-server.mjs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from './lib/browser.mjs';
import { makeRunDirs, removeDir } from './lib/workspace.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string', short: 'g' },
    'skip-build': { type: 'boolean', default: false },
    trust: { type: 'boolean', default: process.env.SWITCHBOARD_HOST_TRUST === '1' },
    keep: { type: 'boolean', default: false },
    timeout: { type: 'string', default: process.env.SWITCHBOARD_HOST_TIMEOUT ?? '900' },
    host: { type: 'string', default: process.env.SWITCHBOARD_TEST_HOST },
    'multi-root': { type: 'boolean', default: false },
  },
  allowPositionals: false,
});

const ARTIFACTS = join(TEST_RESULTS, opts['multi-root'] ? 'host-multi-root' : opts.trust ? 'host-untrusted' : 'host');
const TESTS_ENTRY = join(REPO, 'out', 'test', 'host', 'index.js');
const say = (m) => console.log(`[host] ${m}`);

async function build() {
  for (const [cmd, args] of [
    [process.execPath, ['esbuild.mjs']],
    [join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.test.json']],
  ]) {
    const { code } = await run(cmd, args, { cwd: REPO, quiet: false });
    // tsc still emits when it finds type errors (the typecheck step reports those): run what it emitted.
    if (code !== 0 && !(cmd.endsWith('tsc') && existsSync(TESTS_ENTRY))) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${code})`);
    if (code !== 0) say('tsc reported type errors (see npm run typecheck); running the JavaScript it emitted');
  }
}

/** An Electron VS Code usable by @vscode/test-electron, or null. */
function electronExecutable() {
  if (opts.host === 'code-server') return null;
  const hasDisplay = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (process.env.VSCODE_EXECUTABLE && existsSync(process.env.VSCODE_EXECUTABLE)) return process.env.VSCODE_EXECUTABLE;
  const cache = join(REPO, '.vscode-test');
  if (hasDisplay && existsSync(cache)) {
    for (const d of readdirSync(cache).filter((n) => n.startsWith('vscode-')).sort().reverse()) {
      for (const exe of ['code', 'VSCode-linux-x64/code', 'Visual Studio Code.app/Contents/MacOS/Electron', 'Code.exe']) {
        if (existsSync(join(cache, d, exe))) return join(cache, d, exe);
      }
    }
  }
  if (opts.host === 'electron') throw new Error('--host electron: set VSCODE_EXECUTABLE (and DISPLAY) or cache a download in .vscode-test/');
  return null;
}

/** Prints what the in-host runner appended to its log since the last call. */
function makeTail(file) {
  let offset = 0;
  return () => {
    if (!existsSync(file)) return;
    const size = statSync(file).size;
    if (size <= offset) return;
    const fd = openSync(file, 'r');
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    closeSync(fd);
    offset = size;
    process.stdout.write(buf.toString('utf8'));
  };
}

function readResults(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function testEnv(dirs, host) {
  return {
    SWITCHBOARD_TEST_RESULTS: join(dirs.root, 'results.json'),
    // Where the window's logs are (user-data/logs): a test can wait for what Switchboard's log channel says.
    SWITCHBOARD_TEST_USER_DATA: dirs.userDataDir,
    SWITCHBOARD_TEST_GREP: opts.grep ?? '',
    SWITCHBOARD_TEST_COLOR: process.stdout.isTTY ? '1' : '0',
    SWITCHBOARD_TEST_HOST: host,
    SWITCHBOARD_TEST_WORKSPACE: opts['multi-root'] ? 'multi-root' : 'folder',
  };
}

/** With --multi-root: a second folder beside the workspace and a .code-workspace naming both, in that order. */
function makeMultiRootWorkspace(dirs) {
  const second = join(dirname(dirs.workspace), 'second-folder');
  mkdirSync(second, { recursive: true });
  writeFileSync(join(second, 'README.md'), '# The second folder of the multi-root workspace\n');
  const file = join(dirname(dirs.workspace), 'multi-root.code-workspace');
  writeFileSync(file, JSON.stringify({ folders: [{ path: dirs.workspace }, { path: second }], settings: {} }, null, 2) + '\n');
  return file;
}

async function runInElectron(exe, dirs) {
  say(`VS Code (Electron) at ${exe}`);
  const env = testEnv(dirs, 'electron');
  const { runTests } = await import('@vscode/test-electron');
  const resultsFile = env.SWITCHBOARD_TEST_RESULTS;
  try {
    await runTests({
      vscodeExecutablePath: exe,
      extensionDevelopmentPath: REPO,
      extensionTestsPath: TESTS_ENTRY,
      extensionTestsEnv: env,
      launchArgs: [
        dirs.workspaceFile ?? dirs.workspace,
        '--user-data-dir', dirs.userDataDir,
        '--extensions-dir', dirs.extensionsDir,
        '--skip-welcome', '--skip-release-notes', '--disable-gpu', '--no-sandbox',
        ...UNUSED_BUILTINS.flatMap((id) => ['--disable-extension', id]),
        ...(opts.trust ? [] : ['--disable-workspace-trust']),
      ],
    });
  } catch (err) {
    say(`VS Code exited with an error: ${err?.message ?? err}`);
  }
  makeTail(resultsFile.replace(/\.json$/, '.log'))();
  return readResults(resultsFile) ?? { failed: 1, error: 'the extension host wrote no results' };
}

/**
 * Headless Chromium on the workbench URL with no DevTools client attached while the tests run: an attached
 * client (Playwright) is sent every WebSocket frame between the workbench and code-server, and the whole
 * configuration crosses that socket on every settings change, which cost the browser and the runner CPU
 * all run long. The console comes from Chromium's own log (stderr); a screenshot connects over the
 * DevTools port only when one is wanted.
 */
function startBrowser(url, profile) {
  const consoleLog = [];
  const child = startTracked(
    requireChromium(TEST_CHROMIUM),
    [
      ...CHROMIUM_ARGS,
      '--headless',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      '--window-size=1280,800',
      // As Playwright starts it: a page nobody looks at keeps its timers and rendering at full speed.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
      '--hide-scrollbars',
      '--mute-audio',
      '--enable-logging=stderr',
      '--v=0',
      url,
    ],
    { log: (d) => consoleLog.push(...d.split('\n').filter((l) => l.includes(':CONSOLE'))) },
  );
  onCleanup(() => child.stop());
  onCleanup(() => writeFileSync(join(ARTIFACTS, 'browser-console.log'), consoleLog.join('\n') + '\n'));
  return {
    async screenshot(path) {
      const port = readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0];
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { timeout: 30_000 });
      try {
        const page = browser.contexts().flatMap((c) => c.pages())[0];
        if (page) await page.screenshot({ path, timeout: 30_000 });
      } finally {
        await browser.close().catch(() => {});
      }
    },
  };
}

async function runInCodeServer(dirs, timeoutMs) {
  const env = testEnv(dirs, 'code-server');
  const resultsFile = env.SWITCHBOARD_TEST_RESULTS;
  const tail = makeTail(resultsFile.replace(/\.json$/, '.log'));
  const t0 = Date.now();
  await ensureCodeServer();
  const server = await startCodeServer({
    folder: dirs.workspace,
    userDataDir: dirs.userDataDir,
    extensionsDir: dirs.extensionsDir,
    trust: opts.trust,
    env,
    logFile: join(ARTIFACTS, 'code-server.log'),
    omitBuiltins: UNUSED_BUILTINS,
  });
  onCleanup(() => server.stop());
  say(`code-server ${server.url} (pid ${server.child.pid}) up in ${((Date.now() - t0) / 1000).toFixed(1)} s${opts.trust ? ', workspace trust enabled' : ''}`);

  const payload = [
    ['extensionDevelopmentPath', remoteUri(server, REPO)],
    ['extensionTestsPath', remoteUri(server, TESTS_ENTRY)],
  ];
  // A .code-workspace opens with ?workspace= (the workbench reads a path as a file on the server).
  const url = dirs.workspaceFile
    ? `${server.url}/?${new URLSearchParams({ workspace: dirs.workspaceFile, payload: JSON.stringify(payload) })}`
    : workbenchUrl(server, { payload });
  const browser = startBrowser(url, join(dirs.root, 'chromium-profile'));

  const startDeadline = Date.now() + 180_000;
  const deadline = Date.now() + timeoutMs;
  let started = false;
  let exitInfo = null;
  server.child.exited.then((e) => (exitInfo = e));
  for (;;) {
    if (!started && existsSync(`${resultsFile}.started`)) {
      started = true;
      say(`extension host started the tests ${((Date.now() - t0) / 1000).toFixed(1)} s after launch`);
    }
    tail();
    const results = readResults(resultsFile);
    if (results) {
      tail();
      return { results };
    }
    if (exitInfo) throw Object.assign(new Error(`code-server exited (code ${exitInfo.code}) before the tests finished; see ${ARTIFACTS}/code-server.log`), { browser });
    if (Date.now() > deadline) {
      throw Object.assign(
        new Error(`host tests timed out after ${timeoutMs / 1000} s (${started ? 'they started but did not finish' : 'the extension host never started them'}; raise with --timeout <seconds>)`),
        { browser },
      );
    }
    if (!started && Date.now() > startDeadline) {
      throw Object.assign(
        new Error(`the extension host did not start the tests within ${Math.round((startDeadline - t0) / 1000)} s (is out/test/host/index.js compiled? see ${ARTIFACTS}/browser-console.log and code-server.log)`),
        { browser },
      );
    }
    await sleep(200);
  }
}

async function main() {
  const t0 = Date.now();
  mkdirSync(ARTIFACTS, { recursive: true });
  if (!opts['skip-build']) await build();
  if (!existsSync(TESTS_ENTRY)) throw new Error(`${TESTS_ENTRY} is missing: compile with tsc -p tsconfig.test.json`);
  if (!existsSync(join(REPO, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run npm run build');

  const dirs = makeRunDirs('switchboard-host');
  if (opts['multi-root']) dirs.workspaceFile = makeMultiRootWorkspace(dirs);
  onCleanup(() => (opts.keep ? say(`kept ${dirs.root}`) : removeDir(dirs.root)));
  const timeoutMs = Number(opts.timeout) * 1000;

  let results;
  const exe = electronExecutable();
  if (exe) {
    results = await runInElectron(exe, dirs);
  } else {
    try {
      ({ results } = await runInCodeServer(dirs, timeoutMs));
    } catch (err) {
      if (err.browser) await err.browser.screenshot(join(ARTIFACTS, 'failure.png')).catch(() => {});
      throw err;
    }
  }
  if (results.error) say(`the run broke: ${results.error}`);
  say(
    `${results.passed ?? 0} passed, ${results.failed ?? 0} failed, ${results.pending ?? 0} pending in VS Code ${results.vscodeVersion ?? '?'} ` +
      `(${results.appName ?? '?'}); ${((Date.now() - t0) / 1000).toFixed(1)} s in all`,
  );
  return results.failed > 0 || results.error ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`[host] FAILED: ${err?.message ?? err}`);
  code = 1;
} finally {
  await cleanupAll();
}
// Nothing of ours may outlive the run; exit explicitly in case a handle lingers.
process.exit(code);
