#!/usr/bin/env node
// End-to-end tests: package the VSIX, install it into a fresh extensions dir of code-server (VS Code
// 1.100.3, cached in ~/.cache/switchboard-test-host, installed when missing), start code-server on a temp
// copy of test/fixtures/workspace, then run mocha over out/test/e2e/**/*.test.js (compiled from test/e2e
// with its own tsconfig). The tests drive headless Chromium with playwright-core (helpers in
// test/e2e/helpers/workbench.ts). Screenshots and logs go to test-results/e2e/. code-server, mocha and
// Chromium process trees are always killed at the end.
//
// Usage: node scripts/run-e2e-tests.mjs [--grep <pattern>] [--skip-package] [--vsix <file>] [--keep]
//                                       [--timeout <seconds>] [--skip-compile]
//   --skip-compile  use the out/test/e2e that scripts/compile-tests.mjs emitted (npm test does)
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO, PKG, TEST_RESULTS, TEST_CHROMIUM, EXTENSION_ID } from './lib/paths.mjs';
import { run, onCleanup, cleanupAll } from './lib/proc.mjs';
import { E2E_UNUSED_BUILTINS, ensureCodeServer, installVsix, startCodeServer, workbenchUrl } from './lib/code-server.mjs';
import { MACHINE_SCOPED, makeRunDirs, removeDir } from './lib/workspace.mjs';
import { CHROMIUM_ARGS, requireChromium } from './lib/browser.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string', short: 'g' },
    'skip-package': { type: 'boolean', default: false },
    'skip-compile': { type: 'boolean', default: false },
    vsix: { type: 'string' },
    keep: { type: 'boolean', default: false },
    timeout: { type: 'string', default: process.env.SWITCHBOARD_E2E_TIMEOUT ?? '900' },
  },
});

const ARTIFACTS = join(TEST_RESULTS, 'e2e');
const say = (m) => console.log(`[e2e] ${m}`);
const seconds = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;

async function main() {
  const t0 = Date.now();
  mkdirSync(ARTIFACTS, { recursive: true });
  requireChromium(TEST_CHROMIUM);

  let vsix = opts.vsix ? resolve(opts.vsix) : join(REPO, `${PKG.name}-${PKG.version}.vsix`);
  if (!opts.vsix && !(opts['skip-package'] && existsSync(vsix))) {
    const t = Date.now();
    const pack = await run(process.execPath, [join(REPO, 'scripts', 'package.mjs')], { cwd: REPO, quiet: true });
    if (pack.code !== 0) {
      process.stdout.write(pack.output);
      throw new Error('packaging the VSIX failed');
    }
    vsix = pack.output.trim().split('\n').pop();
    say(`packaged ${vsix} in ${seconds(t)} (${pack.output.match(/VSIX (\d+ KiB)/)?.[1] ?? '?'})`);
  }
  if (!existsSync(vsix)) throw new Error(`${vsix} does not exist`);

  if (!opts['skip-compile']) {
    const tsc = await run(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', 'test/e2e'], { cwd: REPO });
    if (tsc.code !== 0) throw new Error('compiling test/e2e failed');
  }

  await ensureCodeServer();
  const dirs = makeRunDirs('switchboard-e2e');
  onCleanup(() => (opts.keep ? say(`kept ${dirs.root}`) : removeDir(dirs.root)));
  let t = Date.now();
  await installVsix(vsix, dirs);
  say(`installed the VSIX into a fresh extensions dir in ${seconds(t)}`);

  t = Date.now();
  const server = await startCodeServer({
    folder: dirs.workspace,
    userDataDir: dirs.userDataDir,
    extensionsDir: dirs.extensionsDir,
    logFile: join(ARTIFACTS, 'code-server.log'),
    // One window per describe: what every window starts and no e2e test uses is left out.
    omitBuiltins: E2E_UNUSED_BUILTINS,
  });
  onCleanup(() => server.stop());
  say(`code-server ${server.url} up in ${seconds(t)}`);

  const mochaArgs = [
    join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--reporter', join(REPO, 'scripts', 'lib', 'timed-spec-reporter.cjs'),
    '--timeout', '120000',
    '--exit',
    ...(opts.grep ? ['--grep', opts.grep] : []),
    'out/test/e2e/**/*.test.js',
  ];
  const result = await run(process.execPath, mochaArgs, {
    cwd: REPO,
    env: {
      ...process.env,
      SWITCHBOARD_E2E_URL: workbenchUrl(server),
      SWITCHBOARD_E2E_USER_DATA: dirs.userDataDir,
      SWITCHBOARD_E2E_WORKSPACE: dirs.workspace,
      SWITCHBOARD_E2E_ARTIFACTS: ARTIFACTS,
      CHROMIUM_PATH: TEST_CHROMIUM,
      SWITCHBOARD_E2E_CHROMIUM_ARGS: JSON.stringify(CHROMIUM_ARGS),
      SWITCHBOARD_E2E_MACHINE_SCOPED: JSON.stringify([...MACHINE_SCOPED]),
    },
    timeoutMs: Number(opts.timeout) * 1000,
  });
  if (result.timedOut) say(`e2e tests timed out after ${opts.timeout} s (raise with --timeout <seconds>)`);
  if (result.code !== 0) reportExtensionLogs(dirs.userDataDir);
  say(`${result.code === 0 ? 'passed' : 'FAILED'} in ${seconds(t0)}; screenshots and logs in ${ARTIFACTS}`);
  return result.code === 0 ? 0 : 1;
}

/**
 * After a failure: Switchboard's own logs (its log channel and the ACP message trace) from the extension
 * host, copied to the artifacts and their tails printed, since a CI run keeps only the output.
 */
function reportExtensionLogs(userDataDir) {
  const found = [];
  const walk = (dir, depth) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && depth < 4) walk(full, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.log') && basename(dir).toLowerCase() === EXTENSION_ID.toLowerCase()) found.push(full);
    }
  };
  try {
    walk(join(userDataDir, 'logs'), 0);
  } catch {
    return say('no extension host logs were written');
  }
  for (const file of found) {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').filter(Boolean);
    if (lines.length === 0) continue;
    // One log folder per window (a reload starts a new extension host): logs/<time>/exthost<n>/<id>/.
    const window = relative(join(userDataDir, 'logs'), file).split(sep).slice(0, 2).join('-');
    copyFileSync(file, join(ARTIFACTS, `${window}-${basename(file)}`));
    say(`last ${Math.min(60, lines.length)} of ${lines.length} lines of ${window}/${basename(file)}:`);
    for (const line of lines.slice(-60)) console.log(`  ${line.slice(0, 300)}`);
  }
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`[e2e] FAILED: ${err?.message ?? err}`);
} finally {
  await cleanupAll();
}
process.exit(code);
