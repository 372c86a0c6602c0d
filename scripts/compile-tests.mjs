#!/usr/bin/env node
// Compiles everything the test tiers run, once, into out/: src + test + bench (tsconfig.test.json), the
// e2e tests (test/e2e/tsconfig.json) and the webview component tests (an esbuild bundle). It type-checks
// the webview too (no output). Each tsc emits even when it finds type errors, so the tiers can still run;
// the exit code is non-zero when any of them found one. It covers every check `npm run typecheck` makes.
// out/test is emptied first, so a test file that was moved or deleted does not run from a stale copy.
//
// Usage: node scripts/compile-tests.mjs
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './lib/paths.mjs';
import { run } from './lib/proc.mjs';

const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const STEPS = [
  ['src, test and bench', [tsc, '-p', 'tsconfig.test.json']],
  ['the e2e tests', [tsc, '-p', 'test/e2e']],
  ['the webview (type check only)', [tsc, '-p', 'webview-ui', '--noEmit']],
  ['the webview component tests', [join(REPO, 'test', 'unit', 'webview', 'build.mjs')]],
];

// Compiled tests of files since moved or deleted would still run: start from an empty out/test.
rmSync(join(REPO, 'out', 'test'), { recursive: true, force: true });

// Two at a time: each tsc is one thread, and CI has two cores.
const results = [];
for (let i = 0; i < STEPS.length; i += 2) {
  results.push(...(await Promise.all(STEPS.slice(i, i + 2).map(async ([what, args]) => ({ what, ...(await run(process.execPath, args, { cwd: REPO })) })))));
}
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) console.error(`compile-tests: ${r.what} failed (exit ${r.code})`);
process.exit(failed.length ? 1 : 0);
