#!/usr/bin/env node
/* global process, console */
// `npm run bench [-- name...]`: compiles (tsconfig.test.json) and runs every compiled
// bench/*.bench.ts and every bench/*.bench.mjs (or only those whose name contains one of the arguments), each in its
// own Node process with --expose-gc. A bench prints its report and updates its own
// section of bench/RESULTS.md. Benchmarks are not tests: nothing here asserts timings.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);

const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.test.json'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) console.warn('bench: tsc reported errors; running the benches that compiled anyway');

const outDir = path.join(root, 'out/bench');
const srcDir = path.join(root, 'bench');
const wanted = (f) => filters.length === 0 || filters.some((x) => f.includes(x));
// Compiled TypeScript benches, then plain .mjs ones (the chat bench drives a real workbench).
const benches = [
  ...(fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((f) => f.endsWith('.bench.js')).map((f) => path.join(outDir, f)) : []),
  ...fs.readdirSync(srcDir).filter((f) => f.endsWith('.bench.mjs')).map((f) => path.join(srcDir, f)),
]
  .filter((f) => wanted(path.basename(f)))
  .sort();
if (benches.length === 0) {
  console.error(`bench: nothing to run in ${outDir}${filters.length ? ` matching ${filters.join(', ')}` : ''}`);
  process.exit(1);
}
let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${path.relative(root, bench)} ===`);
  const run = spawnSync(process.execPath, ['--expose-gc', bench], { cwd: root, stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed++;
    console.error(`bench: ${bench} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed ? 1 : 0);
