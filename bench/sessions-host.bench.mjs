#!/usr/bin/env node
/* global process, console */
// The extension host with many long sessions: 20 open sessions of 2,000 agent messages each (heap growth) and
// reopening them from the local store the way a window reload restores its tabs (time to the first, the
// active one, and to all). Runs test/host/bench/sessionsBench.test.ts in the real extension host (code-server)
// through scripts/run-host-tests.mjs with SWITCHBOARD_SESSIONS_BENCH set, then writes its section of
// bench/RESULTS.md between the "sessions-host" markers. Targets (issue 29): heap growth <= 200 MB; reopening
// <= 2 s until the active one is shown. Benchmarks are not tests: nothing fails on a number.
// Usage: node bench/sessions-host.bench.mjs [--sessions 20] [--messages 2000] [--no-write]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO } from '../scripts/lib/paths.mjs';
import { benchLib } from './lib/compiled.mjs';

const { writeResultsSection } = benchLib('results');
const { values: opts } = parseArgs({ options: { sessions: { type: 'string', default: '20' }, messages: { type: 'string', default: '2000' }, 'no-write': { type: 'boolean', default: false } } });
const out = join(os.tmpdir(), `switchboard-sessions-bench-${process.pid}.json`);
const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'run-host-tests.mjs'), '--grep', 'sessions bench'], {
  cwd: REPO,
  stdio: 'inherit',
  env: { ...process.env, SWITCHBOARD_SESSIONS_BENCH: out, SWITCHBOARD_SESSIONS_BENCH_SESSIONS: opts.sessions, SWITCHBOARD_SESSIONS_BENCH_MESSAGES: opts.messages },
});
if (run.status !== 0) {
  console.error('[bench:sessions-host] the host run failed');
  process.exit(1);
}
const r = JSON.parse(readFileSync(out, 'utf8'));
rmSync(out, { force: true });
const growth = r.heapOpenMB - r.heapBeforeMB;
const report = [
  '## Extension host: many long sessions',
  '',
  `${r.sessions} sessions of ${r.messages} agent messages each (${r.items} transcript items), opened in the real extension host (code-server); heap in use after settling (the lowest of 5 samples 400 ms apart; no forced GC in the extension host). Load ${os.loadavg()[0].toFixed(1)} (1-min) at the end.`,
  '',
  '| measure | value | target |',
  '|---|---|---|',
  `| heap growth with all open | ${growth.toFixed(0)} MB (${r.heapBeforeMB.toFixed(0)} → ${r.heapOpenMB.toFixed(0)} MB) | ≤ 200 MB |`,
  `| heap after closing them | ${r.heapClosedMB.toFixed(0)} MB | |`,
  `| heap after reopening them | ${r.heapReopenedMB.toFixed(0)} MB | |`,
  `| reopening from the store: the first (active) session | ${r.firstReopenMs.toFixed(0)} ms | ≤ 2 s until shown |`,
  `| reopening from the store: all ${r.reopened} | ${r.allReopenMs.toFixed(0)} ms | |`,
  `| opening them (turn of ${r.messages} messages each) | ${(r.openMs / 1000).toFixed(1)} s | |`,
  '',
  'Reopening is timed in the extension host up to the session being open with its transcript; the chat\'s render of it is measured by the chat bench (the 2,000-message build).',
].join('\n');
console.log(report);
if (!opts['no-write']) writeResultsSection('sessions-host', report);
