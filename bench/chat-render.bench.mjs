#!/usr/bin/env node
/* global process, console */
// Chat panel rendering benchmark, in the real workbench: the packaged VSIX in code-server 4.100.3 (VS Code
// 1.100.3) driven by headless Chromium (the e2e infra's scripts/lib helpers). Measured inside the chat
// webview's own document:
//   1. the demo agent's `stream 5000` (5,000 agent_message_chunk updates sent as fast as the agent can):
//      time from the first chunk visible in the DOM to the last, chunks/s rendered, the longest main-thread
//      task (PerformanceObserver 'longtask', i.e. tasks >= 50 ms) and the longest gap between animation
//      frames, JS heap of the webview (performance.memory, precise, after gc()) — 3 runs, each in a new session;
//   2. a 2,000-message transcript (bench/lib/transcript-agent.mjs: `messages 2000`, one turn): time to render,
//      long tasks, DOM size, heap; then how responsive the panel stays on top of it: key-to-paint latency
//      typing 30 characters into "Message", scrolling the transcript, and `stream 1000` streamed into it.
// Target (issue 13): 15,000 chunks/s end to end on a 20,000-chunk answer (`--chunks 20000`), no main-thread
// task over 50 ms. Benchmarks are not tests:
// nothing here fails on a number; the report goes between the "chat" markers of bench/RESULTS.md.
//
//   3. a day's session (`--long <n>`, default 10,000 items with tool calls): open time, find, scrolling from the
//      end to the first item, heap (bench/lib/long-session.mjs).
// Usage: node bench/chat-render.bench.mjs [--package] [--runs <n>] [--chunks <n>] [--messages <n>] [--long <n>] [--no-write] [--cpu-throttle <n>] [--vsix <path>] [--no-frame-clock] [--scroll-pace <ms>]
//   --cpu-throttle <n>   Chromium slows the renderer n times (DevTools CPU throttling), to stand for a slower machine
//   --scroll-pace <ms>   wait this long after each wheel step over the long transcript (default 0: the next step
//                        as soon as the page took the last, so how many steps share a frame follows the load)
//   --no-frame-clock   no requestAnimationFrame loop in the page (frame gaps n/a): long tasks as a user's page has them
//   BENCH_TRACE=<command prefix> records a Chrome trace of that Markdown shape to test-results/bench/trace-<what>.json
//   (BENCH_TRACE=stream: the first `stream` run; BENCH_TRACE=messages: the build of the long transcript;
//   BENCH_TRACE=typing: the 30 keys typed on the long transcript; BENCH_TRACE=scrolling: the wheel steps over it;
//   BENCH_TRACE=long: scrolling the day-long session to its start; BENCH_TRACE=all: each of them, a file each;
//   BENCH_TRACE_LIGHT=1: no V8 samples). bench/lib/trace-tasks.mjs reads the renderer's tasks from a trace, bench/lib/trace-breakdown.mjs what they spent their CPU on.
//   --no-shapes   leave out the `code` and `blocks` shapes (with --runs 0: the long transcript and typing only)
//   --vsix <path>   install that VSIX (another build, for a before/after pair)
//   --package   build the VSIX first (default: reuse switchboard-<version>.vsix, build it if missing)
// This file reads the options and runs the bench; its parts are in bench/lib: chat-probe.mjs (the in-webview
// instrumentation), chat-workbench.mjs (driving the workbench), chat-runs.mjs (the measured runs),
// chat-report.mjs (the report and its section of RESULTS.md), chat-trace.mjs (BENCH_TRACE's Chrome traces).
import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { REPO, PKG, DEMO_AGENT, CHROMIUM, TEST_RESULTS } from '../scripts/lib/paths.mjs';
import { run, onCleanup, cleanupAll } from '../scripts/lib/proc.mjs';
import { ensureCodeServer, installVsix, startCodeServer, workbenchUrl } from '../scripts/lib/code-server.mjs';
import { makeRunDirs, removeDir } from '../scripts/lib/workspace.mjs';
import { CHROMIUM_ARGS, waitForWorkbench } from '../scripts/lib/browser.mjs';
import { report, writeSection, e2eRate, fmt, MB } from './lib/chat-report.mjs';
import { streamRun, transcriptRun } from './lib/chat-runs.mjs';
import { traced, tracer } from './lib/chat-trace.mjs';
import { freshSession, openChat, send, waitIdle } from './lib/chat-workbench.mjs';
import { benchLib } from './lib/compiled.mjs';
import { blockChunks, codeChunks } from './lib/markdown-shapes.mjs';
import { longSessionReport, longSessionRun } from './lib/long-session.mjs';

const { median } = benchLib('stats');

const { values: opts } = parseArgs({
  options: {
    package: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    chunks: { type: 'string', default: '5000' },
    messages: { type: 'string', default: '2000' },
    long: { type: 'string', default: '10000' },
    'no-write': { type: 'boolean', default: false },
    'no-shapes': { type: 'boolean', default: false },
    'cpu-throttle': { type: 'string', default: '1' },
    'no-frame-clock': { type: 'boolean', default: false },
    'scroll-pace': { type: 'string', default: '0' },
    vsix: { type: 'string' },
  },
});
const RUNS = Number(opts.runs);
const CHUNKS = Number(opts.chunks);
const MESSAGES = Number(opts.messages);
/** Items of the day-long session (bench/lib/long-session.mjs); 0 leaves it out. */
const LONG = Number(opts.long);
/** Chromium's CPU throttling of the renderer (DevTools' "CPU: Nx slowdown"): a slower machine, reproducibly. */
const CPU_THROTTLE = Number(opts['cpu-throttle']);
// The probe's requestAnimationFrame loops (the frame clock, the watchers' checks) make the page render a frame
// every vsync while they run, work a user's page does not do; without them the watchers poll with timers and
// frame gaps are not measured.
const FRAME_CLOCK = !opts['no-frame-clock'];
const TRANSCRIPT_AGENT = join(REPO, 'bench', 'lib', 'transcript-agent.mjs');
const CODE_LINES = 5000;
const SECTIONS = 500;
/** Streamed shapes besides the plain paragraph; chunk counts follow bench/lib/transcript-agent.mjs. */
const SHAPES = [
  { command: `code ${CODE_LINES}`, what: `one fenced code block of ${CODE_LINES.toLocaleString('en')} lines (~250 KB), a line per chunk`, first: 'Here is the file', last: 'End of code.', n: codeChunks(CODE_LINES).length },
  { command: `blocks ${SECTIONS}`, what: `${SECTIONS} sections (heading, paragraph with marks and a link, list; a code fence every 10th), 16 characters a chunk`, first: 'Section 0', last: 'End of blocks.', n: blockChunks(SECTIONS).length },
];
const say = (m) => console.log(`[bench:chat] ${m}`);

async function main() {
  const load = os.loadavg()[0].toFixed(1);
  let vsix = opts.vsix ?? join(REPO, `${PKG.name}-${PKG.version}.vsix`);
  if (opts.package || (!opts.vsix && !existsSync(vsix))) {
    say('packaging the VSIX…');
    const pack = await run(process.execPath, [join(REPO, 'scripts', 'package.mjs')], { cwd: REPO, quiet: true });
    if (pack.code !== 0) throw new Error(`packaging failed:\n${pack.output}`);
    vsix = pack.output.trim().split('\n').pop();
  }
  await ensureCodeServer();
  const dirs = makeRunDirs('switchboard-bench-chat', {
    settings: {
      'switchboard.agents': {
        'Demo Agent': { command: process.execPath, args: [DEMO_AGENT] },
        'Bench Transcript Agent': { command: process.execPath, args: [TRANSCRIPT_AGENT] },
      },
      'switchboard.defaultAgent': 'Demo Agent',
    },
  });
  onCleanup(() => removeDir(dirs.root));
  await installVsix(vsix, dirs);
  mkdirSync(join(TEST_RESULTS, 'bench'), { recursive: true });
  const server = await startCodeServer({ folder: dirs.workspace, userDataDir: dirs.userDataDir, extensionsDir: dirs.extensionsDir, logFile: join(TEST_RESULTS, 'bench', 'chat-code-server.log') });
  onCleanup(() => server.stop());
  say(`code-server ${server.url}`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
    timeout: 60_000,
  });
  onCleanup(() => browser.close().catch(() => {}));
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(workbenchUrl(server), { waitUntil: 'domcontentloaded', timeout: 90_000 });
  await waitForWorkbench(page, { timeout: 90_000 });
  if (CPU_THROTTLE > 1) {
    // The workbench page and its webview iframes share one renderer here, so throttling the page slows the chat too.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
    say(`CPU throttled ${CPU_THROTTLE}x`);
  }
  const frame = await openChat(page, FRAME_CLOCK);
  say('chat webview ready');

  // Warm-up: start the demo agent and render one short stream (JIT, fonts, first session).
  await freshSession(frame, 'Demo Agent');
  await send(frame, 'stream 200');
  await waitIdle(frame);

  const streams = [];
  for (let i = 0; i < RUNS; i++) {
    const trace = i === 0 && traced('stream') && tracer(browser, page, 'stream');
    const r = await streamRun(frame, { agent: 'Demo Agent', command: `stream ${CHUNKS}`, first: 'chunk 0', last: `chunk ${CHUNKS - 1}`, n: CHUNKS, trace });
    say(`stream ${CHUNKS}: ${fmt(r.renderMs)} ms first→last, ${fmt(r.chunksPerSec)} chunks/s, longest task ${fmt(r.longestTask)} ms, longest frame gap ${fmt(r.maxFrameGap)} ms, heap ${fmt(r.heapAfterGc / MB, 1)} MB${r.timedOut ? ' (TIMED OUT)' : ''}`);
    streams.push(r);
  }
  // Other Markdown shapes: a big code block and many small blocks, streamed.
  const shapes = [];
  for (const shape of opts['no-shapes'] ? [] : SHAPES) {
    const trace = traced(shape.command) && tracer(browser, page, shape.command.split(' ')[0]);
    const r = await streamRun(frame, { agent: 'Bench Transcript Agent', ...shape, trace });
    say(`${shape.command}: ${fmt(r.renderMs)} ms first→last, ${fmt(r.chunksPerSec)} chunks/s, longest task ${fmt(r.longestTask)} ms`);
    shapes.push(r);
  }
  let tr;
  if (MESSAGES > 0) {
    const trace = traced('messages') && tracer(browser, page, 'messages');
    tr = await transcriptRun(frame, page, MESSAGES, trace, traced('typing') && tracer(browser, page, 'typing'), traced('scrolling') && tracer(browser, page, 'scrolling'), Number(opts['scroll-pace']));
    say(`${MESSAGES} messages: ${fmt(tr.build.sendToLast)} ms, longest task ${fmt(tr.build.longestTask)} ms; typing median ${fmt(median(tr.keys))} ms; stream on top ${fmt(e2eRate(tr.streamOnTop))} chunks/s end to end`);
  }
  let long;
  if (LONG > 0) {
    const trace = traced('long') && tracer(browser, page, 'long');
    long = await longSessionRun(frame, LONG, { trace });
    say(`session ${LONG}: open ${fmt(long.open.t1 - long.open.t0)} ms, scroll to the start: longest task ${fmt(long.scroll.longestTask)} ms, heap ${fmt(long.open.heapAfterGc / MB, 1)} MB`);
  }
  await page.screenshot({ path: join(TEST_RESULTS, 'bench', 'chat-render.png') }).catch(() => {});
  let md = report({ codeServer: '4.100.3', browser: browser.version(), load, chunks: CHUNKS, cpuThrottle: CPU_THROTTLE, frameClock: FRAME_CLOCK, shapeDefs: SHAPES }, streams, shapes, tr);
  if (long) md += `\n${longSessionReport(long)}`;
  console.log(`\n${md}\n`);
  writeFileSync(join(TEST_RESULTS, 'bench', 'chat-render.json'), JSON.stringify({ streams, shapes, transcript: tr, long }, null, 2));
  if (!opts['no-write']) writeSection(md, CPU_THROTTLE);
}

let code = 1;
try {
  await main();
  code = 0;
} catch (err) {
  console.error(`[bench:chat] FAILED: ${err?.stack ?? err}`);
} finally {
  await cleanupAll();
}
process.exit(code);
