#!/usr/bin/env node
// npm test: every check and every test tier. Steps (each runs when the steps it needs have passed):
//   build        esbuild, development bundles (dist/) for the host tier
//   typecheck    scripts/compile-tests.mjs: type-checks everything `npm run typecheck` does and emits out/
//   lint         ESLint (the layer table included)
//   real-agents  the pinned npm agents, cached outside the clone (scripts/install-real-agents.mjs)
//   unit         plain Node, fast: no real agent, no build, no ESLint (test/unit)
//   tooling      the production build's lazy chunks and the layer lint's own rules (test/tooling)
//   agents       the real npm agents through the scripted model endpoint (test/agents)
//   host, host-untrusted, host-multi-root   mocha inside VS Code (code-server): one folder, the same with
//                workspace trust on, a two-folder .code-workspace
//   package      the VSIX (production build), once, for e2e
//   e2e          Playwright on the workbench with that VSIX installed
// Steps run two at a time (--jobs), most of the time a long VS Code tier beside the Node tiers, so the
// run takes about as long as its longest chain. A step's output is kept in test-results/steps/<step>.log
// (follow it with tail -f) and printed whole when the step ends, so parallel steps never interleave.
// The last line is `N passed, N failed`: mocha tests across the tiers, plus one failure for each step that
// failed without failing a mocha test (a build error, a crashed runner, a step not run because one it needs
// failed). Exits non-zero if any step failed.
//
// Usage: node scripts/test-all.mjs [--skip <step,...>] [--only <step,...>] [--jobs <n>]
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO, TEST_RESULTS } from './lib/paths.mjs';
import { run, cleanupAll } from './lib/proc.mjs';

const { values: opts } = parseArgs({
  options: {
    skip: { type: 'string', default: '' },
    only: { type: 'string', default: '' },
    jobs: { type: 'string', default: process.env.SWITCHBOARD_TEST_JOBS ?? '2' },
  },
});
const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
const skip = new Set(list(opts.skip));
const only = new Set(list(opts.only));
const jobs = Math.max(1, Number(opts.jobs) || 1);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const node = process.execPath;
const mocha = (config) => [join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--config', config];
const VSIX = join(TEST_RESULTS, 'switchboard-test.vsix');
// The VS Code tiers' guard against a hung runner (seconds); a hung test is caught by its own mocha timeout. A
// machine running other test runs beside this one makes e2e (10 min alone) take three times as long, and .ci/run
// has 90 minutes, so the guard allows an hour.
const GUARD = ['--timeout', '3600'];

// In the order they are preferred when a slot is free. The run lasts as long as its two long VS Code
// tiers, so they start as soon as they can: e2e (the longest) right after typecheck and package, host
// beside it; build, package and lint fit beside typecheck, and the short Node and VS Code tiers fill the
// slots the long ones leave.
const STEPS = [
  { name: 'typecheck', cmd: node, args: ['scripts/compile-tests.mjs'] },
  { name: 'build', cmd: npm, args: ['run', '--silent', 'build'] },
  { name: 'package', cmd: node, args: ['scripts/package.mjs', '--out', VSIX] },
  { name: 'e2e', cmd: node, args: ['scripts/run-e2e-tests.mjs', '--vsix', VSIX, '--skip-compile', ...GUARD], mocha: true, needs: ['typecheck', 'package'] },
  { name: 'host', cmd: node, args: ['scripts/run-host-tests.mjs', '--skip-build', ...GUARD], mocha: true, needs: ['build', 'typecheck'] },
  { name: 'lint', cmd: npm, args: ['run', '--silent', 'lint'] },
  { name: 'real-agents', cmd: node, args: ['scripts/install-real-agents.mjs'] },
  { name: 'unit', cmd: node, args: mocha('.mocharc.unit.json'), mocha: true, needs: ['typecheck'] },
  { name: 'agents', cmd: node, args: mocha('.mocharc.agents.json'), mocha: true, needs: ['typecheck', 'real-agents'] },
  {
    name: 'host-untrusted',
    cmd: node,
    args: ['scripts/run-host-tests.mjs', '--skip-build', '--trust', '--grep', 'workspace trust'],
    mocha: true,
    needs: ['build', 'typecheck'],
  },
  { name: 'host-multi-root', cmd: node, args: ['scripts/run-host-tests.mjs', '--skip-build', '--multi-root'], mocha: true, needs: ['build', 'typecheck'] },
  { name: 'tooling', cmd: node, args: mocha('.mocharc.tooling.json'), mocha: true, needs: ['typecheck'] },
];

// eslint-disable-next-line no-control-regex
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** Sums mocha's "N passing" / "N failing" lines in a step's output. */
function mochaCounts(output) {
  const text = stripAnsi(output);
  const sum = (re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  return { passed: sum(/^\s*(\d+) passing\b/gm), failed: sum(/^\s*(\d+) failing\b/gm) };
}

const LOGS = join(TEST_RESULTS, 'steps');
mkdirSync(LOGS, { recursive: true });
const t0 = Date.now();
const clock = () => `${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s`;

/** name → { status: 'skipped' | 'passed' | 'failed', ... } once settled. */
const results = new Map();
for (const step of STEPS) {
  if (skip.has(step.name) || (only.size && !only.has(step.name))) results.set(step.name, { ...step, status: 'skipped' });
}

async function runStep(step) {
  console.log(`[${clock()}] start ${step.name}: ${[step.cmd === node ? 'node' : step.cmd, ...step.args].join(' ')}`);
  const log = createWriteStream(join(LOGS, `${step.name}.log`));
  const started = Date.now();
  const startedAt = (started - t0) / 1000;
  const { code, output } = await run(step.cmd, step.args, {
    cwd: REPO,
    env: { ...process.env, FORCE_COLOR: '0' },
    quiet: true,
    onOutput: (d) => log.write(d),
  });
  log.end();
  const seconds = (Date.now() - started) / 1000;
  const counts = step.mocha ? mochaCounts(output) : { passed: 0, failed: 0 };
  const status = code === 0 ? 'passed' : 'failed';
  let note = '';
  if (status === 'failed' && counts.failed === 0) {
    counts.failed = 1;
    note = 'step failed (counted as 1 failure)';
  }
  console.log(`\n━━━ ${step.name} ${status} in ${seconds.toFixed(1)} s\n${output.trimEnd()}\n━━━ end of ${step.name}\n`);
  return { ...step, status, ...counts, seconds, startedAt, note, code };
}

/** Runs the steps as their needs allow, at most `jobs` at a time, in STEPS order of preference. */
async function schedule() {
  const running = new Map();
  for (;;) {
    for (const step of STEPS) {
      if (results.has(step.name) || running.has(step.name)) continue;
      const needs = step.needs ?? [];
      // A skipped need counts as met: its output is expected to be there already (e.g. --skip build).
      const broken = needs.find((n) => results.get(n)?.status === 'failed');
      if (broken) {
        results.set(step.name, { ...step, status: 'failed', note: `not run: ${broken} failed`, passed: 0, failed: 1, seconds: 0 });
        continue;
      }
      if (running.size >= jobs || !needs.every((n) => results.has(n))) continue;
      running.set(step.name, runStep(step).then((r) => results.set(step.name, r)).finally(() => running.delete(step.name)));
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
}

await schedule();
await cleanupAll();

console.log('\n━━━ summary');
for (const step of STEPS) {
  const r = results.get(step.name);
  const tests = r.mocha && r.status !== 'skipped' ? `${r.passed} passed, ${r.failed} failed` : '';
  const time = r.seconds !== undefined ? `${r.seconds.toFixed(1)} s` : '';
  const at = r.startedAt !== undefined ? `from ${r.startedAt.toFixed(0)} s` : '';
  console.log(`  ${r.name.padEnd(16)} ${r.status.padEnd(8)} ${time.padStart(8)} ${at.padStart(10)}  ${tests}${r.note ? `  ${r.note}` : ''}`);
}
console.log(`  total ${((Date.now() - t0) / 1000).toFixed(1)} s with ${jobs} job(s) at a time`);
const all = [...results.values()];
const passed = all.reduce((n, r) => n + (r.passed ?? 0), 0);
const failed = all.reduce((n, r) => n + (r.failed ?? 0), 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(all.some((r) => r.status === 'failed') ? 1 : 0);
