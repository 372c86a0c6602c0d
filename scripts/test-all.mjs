#!/usr/bin/env node
// npm test: build, typecheck, lint, unit tests, host tests (inside VS Code), e2e tests (Playwright on the
// workbench with the packaged VSIX). Every step runs even when an earlier one failed (except that host and
// e2e need a successful build), so one run shows everything that is wrong. Exits non-zero if any step
// failed. The last line is the summary `N passed, N failed`: mocha tests across the tiers, plus one
// failure for each step that failed without failing a mocha test (a build error, a crashed runner).
//
// Usage: node scripts/test-all.mjs [--skip <step,...>] [--only <step,...>]
//   steps: build, typecheck, lint, real-agents, unit, host, host-untrusted, host-multi-root, e2e
import { parseArgs } from 'node:util';
import { REPO } from './lib/paths.mjs';
import { run, cleanupAll } from './lib/proc.mjs';

const { values: opts } = parseArgs({
  options: { skip: { type: 'string', default: '' }, only: { type: 'string', default: '' } },
});
const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
const skip = new Set(list(opts.skip));
const only = new Set(list(opts.only));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STEPS = [
  { name: 'build', cmd: npm, args: ['run', '--silent', 'build'] },
  { name: 'typecheck', cmd: npm, args: ['run', '--silent', 'typecheck'] },
  { name: 'lint', cmd: npm, args: ['run', '--silent', 'lint'] },
  // Real agents from npm (test/fixtures/realAgents/agents.json), pinned, cached outside the clone: the
  // unit, host and e2e tiers run whole turns with them against a scripted model endpoint on 127.0.0.1.
  { name: 'real-agents', cmd: process.execPath, args: ['scripts/install-real-agents.mjs'] },
  { name: 'unit', cmd: npm, args: ['run', '--silent', 'test:unit'], mocha: true },
  { name: 'host', cmd: process.execPath, args: ['scripts/run-host-tests.mjs'], mocha: true, needs: 'build' },
  // The same host, with workspace trust on (the workspace is then untrusted): agent definitions from
  // workspace settings must be ignored.
  {
    name: 'host-untrusted',
    cmd: process.execPath,
    args: ['scripts/run-host-tests.mjs', '--skip-build', '--trust', '--grep', 'workspace trust'],
    mocha: true,
    needs: 'build',
  },
  // A .code-workspace of two folders: the tests under test/host/multiRoot (additionalDirectories).
  { name: 'host-multi-root', cmd: process.execPath, args: ['scripts/run-host-tests.mjs', '--skip-build', '--multi-root'], mocha: true, needs: 'build' },
  { name: 'e2e', cmd: process.execPath, args: ['scripts/run-e2e-tests.mjs'], mocha: true, needs: 'build' },
];

// eslint-disable-next-line no-control-regex
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** Sums mocha's "N passing" / "N failing" lines in a step's output. */
function mochaCounts(output) {
  const text = stripAnsi(output);
  const sum = (re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  return { passed: sum(/^\s*(\d+) passing\b/gm), failed: sum(/^\s*(\d+) failing\b/gm) };
}

const results = [];
const t0 = Date.now();
for (const step of STEPS) {
  if (skip.has(step.name) || (only.size && !only.has(step.name))) {
    results.push({ ...step, status: 'skipped' });
    continue;
  }
  const dep = step.needs && results.find((r) => r.name === step.needs);
  if (dep && dep.status === 'failed') {
    results.push({ ...step, status: 'failed', note: `not run: ${step.needs} failed`, passed: 0, failed: 1, seconds: 0 });
    continue;
  }
  // The unit step compiled src+test into out/ (tsc emits even with type errors) and build made dist/:
  // the host runner need not compile again.
  if (step.name === 'host' && results.find((r) => r.name === 'unit')?.status !== 'skipped') step.args = [...step.args, '--skip-build'];
  console.log(`\n━━━ ${step.name}: ${[step.cmd === process.execPath ? 'node' : step.cmd, ...step.args].join(' ')}`);
  const started = Date.now();
  const { code, output } = await run(step.cmd, step.args, { cwd: REPO, env: { ...process.env, FORCE_COLOR: '0' } });
  const seconds = (Date.now() - started) / 1000;
  const counts = step.mocha ? mochaCounts(output) : { passed: 0, failed: 0 };
  const status = code === 0 ? 'passed' : 'failed';
  let note = '';
  if (status === 'failed' && counts.failed === 0) {
    counts.failed = 1;
    note = 'step failed (counted as 1 failure)';
  }
  results.push({ ...step, status, ...counts, seconds, note, code });
}
await cleanupAll();

console.log('\n━━━ summary');
for (const r of results) {
  const tests = r.mocha && r.status !== 'skipped' ? `${r.passed} passed, ${r.failed} failed` : '';
  const time = r.seconds !== undefined ? `${r.seconds.toFixed(1)} s` : '';
  console.log(`  ${r.name.padEnd(10)} ${r.status.padEnd(8)} ${time.padStart(8)}  ${tests}${r.note ? `  ${r.note}` : ''}`);
}
console.log(`  total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const passed = results.reduce((n, r) => n + (r.passed ?? 0), 0);
const failed = results.reduce((n, r) => n + (r.failed ?? 0), 0);
const anyFailed = results.some((r) => r.status === 'failed');
console.log(`${passed} passed, ${failed} failed`);
process.exit(anyFailed ? 1 : 0);
