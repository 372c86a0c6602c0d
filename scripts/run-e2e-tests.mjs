#!/usr/bin/env node
// End-to-end tests: package the VSIX, install it into a fresh extensions dir of code-server (VS Code
// 1.100.3, cached in ~/.cache/switchboard-test-host, installed when missing), start code-server on a temp
// copy of test/fixtures/workspace, then run mocha over out/test/e2e/**/*.test.js (compiled from test/e2e
// with its own tsconfig). The tests drive headless Chromium with playwright-core (helpers in
// test/e2e/helpers/workbench.ts). Screenshots and logs go to test-results/e2e/. code-server, mocha and
// Chromium process trees are always killed at the end.
//
// Usage: node scripts/run-e2e-tests.mjs [--grep <pattern>] [--skip-package] [--vsix <file>] [--keep]
//                                       [--timeout <seconds>]
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO, PKG, TEST_RESULTS, CHROMIUM } from './lib/paths.mjs';
import { run, onCleanup, cleanupAll } from './lib/proc.mjs';
import { ensureCodeServer, installVsix, startCodeServer, workbenchUrl } from './lib/code-server.mjs';
import { makeRunDirs, removeDir } from './lib/workspace.mjs';
import { CHROMIUM_ARGS } from './lib/browser.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string', short: 'g' },
    'skip-package': { type: 'boolean', default: false },
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
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

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

  const tsc = await run(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', 'test/e2e'], { cwd: REPO });
  if (tsc.code !== 0) throw new Error('compiling test/e2e failed');

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
  });
  onCleanup(() => server.stop());
  say(`code-server ${server.url} up in ${seconds(t)}`);

  const mochaArgs = [
    join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--reporter', 'spec',
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
      CHROMIUM_PATH: CHROMIUM,
      SWITCHBOARD_E2E_CHROMIUM_ARGS: JSON.stringify(CHROMIUM_ARGS),
    },
    timeoutMs: Number(opts.timeout) * 1000,
  });
  if (result.timedOut) say(`e2e tests timed out after ${opts.timeout} s (raise with --timeout <seconds>)`);
  say(`${result.code === 0 ? 'passed' : 'FAILED'} in ${seconds(t0)}; screenshots and logs in ${ARTIFACTS}`);
  return result.code === 0 ? 0 : 1;
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
