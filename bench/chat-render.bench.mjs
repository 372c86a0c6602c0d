#!/usr/bin/env node
/* global process, console, document, window, performance, requestAnimationFrame, PerformanceObserver, setTimeout */
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
// Usage: node bench/chat-render.bench.mjs [--package] [--runs <n>] [--chunks <n>] [--messages <n>] [--long <n>] [--no-write] [--cpu-throttle <n>] [--vsix <path>] [--no-frame-clock]
//   --cpu-throttle <n>   Chromium slows the renderer n times (DevTools CPU throttling), to stand for a slower machine
//   --no-frame-clock   no requestAnimationFrame loop in the page (frame gaps n/a): long tasks as a user's page has them
//   BENCH_TRACE=<command prefix> records a Chrome trace of that Markdown shape to test-results/bench/trace-<what>.json
//   (BENCH_TRACE=stream: the first `stream` run; BENCH_TRACE=messages: the build of the long transcript;
//   BENCH_TRACE=typing: the 30 keys typed on the long transcript;
//   BENCH_TRACE=long: scrolling the day-long session to its start; BENCH_TRACE=all: each of them, a file each;
//   BENCH_TRACE_LIGHT=1: no V8 samples). bench/lib/trace-tasks.mjs reads the renderer's tasks from a trace, bench/lib/trace-breakdown.mjs what they spent their CPU on.
//   --no-shapes   leave out the `code` and `blocks` shapes (with --runs 0: the long transcript and typing only)
//   --vsix <path>   install that VSIX (another build, for a before/after pair)
//   --package   build the VSIX first (default: reuse switchboard-<version>.vsix, build it if missing)
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { REPO, PKG, DEMO_AGENT, CHROMIUM, TEST_RESULTS } from '../scripts/lib/paths.mjs';
import { run, onCleanup, cleanupAll, sleep } from '../scripts/lib/proc.mjs';
import { ensureCodeServer, installVsix, startCodeServer, workbenchUrl } from '../scripts/lib/code-server.mjs';
import { makeRunDirs, removeDir } from '../scripts/lib/workspace.mjs';
import { CHROMIUM_ARGS, waitForWorkbench } from '../scripts/lib/browser.mjs';
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
/** Whether BENCH_TRACE asks for a trace of `what` (a command, or stream, messages, long). */
const traced = (what) => process.env.BENCH_TRACE === 'all' || (process.env.BENCH_TRACE !== undefined && process.env.BENCH_TRACE !== '' && what.startsWith(process.env.BENCH_TRACE));
const CODE_LINES = 5000;
const SECTIONS = 500;
/** Streamed shapes besides the plain paragraph; chunk counts follow bench/lib/transcript-agent.mjs. */
const SHAPES = [
  { command: `code ${CODE_LINES}`, what: `one fenced code block of ${CODE_LINES.toLocaleString('en')} lines (~250 KB), a line per chunk`, first: 'Here is the file', last: 'End of code.', n: codeChunks(CODE_LINES).length },
  { command: `blocks ${SECTIONS}`, what: `${SECTIONS} sections (heading, paragraph with marks and a link, list; a code fence every 10th), 16 characters a chunk`, first: 'Section 0', last: 'End of blocks.', n: blockChunks(SECTIONS).length },
];
/** Long tasks are counted until this long after the last chunk is shown (end-of-turn work included). */
const COLLECT_AFTER_MS = 300;
const say = (m) => console.log(`[bench:chat] ${m}`);
const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
/** "N (k in the webview)": long tasks in the window, and how many ran the chat webview's own document. */
const tasksCell = (r) => (r.longTasks ? `${r.longTasks} (${r.ownLongTasks} in the webview)` : '0');
/** Chunks per second from Enter to the last chunk shown. */
const e2eRate = (r) => r.n / ((r.tLast - (r.enter ?? r.tFirst)) / 1000);

// ---- in-webview instrumentation (runs inside the chat webview's document) -------------------------------

/** Installs the long-task observer and a frame clock once per document. */
function installProbe(frameClock) {
  if (window.__bench) return;
  const b = (window.__bench = { longtasks: [], frames: [], marks: {}, keyLatencies: [], frameClock });
  try {
    new PerformanceObserver((list) => {
      // name: 'self' when the task ran the chat webview's own document; otherwise another frame on the same
      // renderer thread (the workbench page and its webview iframes share one here).
      for (const e of list.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration, where: e.name });
    }).observe({ type: 'longtask', buffered: true });
    b.longtaskSupported = true;
  } catch {
    b.longtaskSupported = false;
  }
  const tick = (t) => {
    b.frames.push(t);
    if (b.frames.length > 20000) b.frames.splice(0, 10000);
    requestAnimationFrame(tick);
  };
  if (frameClock) requestAnimationFrame(tick);
  // Enter in "Message" marks when a prompt was sent.
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) b.marks.enter = performance.now();
  }, true);
  // Key-to-paint: from the key event's timestamp to the next animation frame after the input is handled.
  document.addEventListener('input', (e) => {
    if (!b.measureKeys) return;
    const t0 = e.timeStamp;
    requestAnimationFrame(() => setTimeout(() => b.keyLatencies.push(performance.now() - t0), 0));
  }, true);
}

/** Resolves (in the page) when the last agent message contains `first`, then `last`; times both. */
function watchStream({ first, last, timeoutMs }) {
  const b = window.__bench;
  return new Promise((resolve) => {
    const started = performance.now();
    let tFirst;
    // The first or last ~400 characters of the last agent message, read from its text nodes: its whole
    // textContent (200 KB and more for the long shapes) each frame would be the probe's own long task.
    const SPAN = 400;
    const edge = (fromEnd) => {
      const all = document.querySelectorAll('.message.agent');
      const el = all[all.length - 1];
      if (!el) return '';
      const walk = document.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
      let text = '';
      if (fromEnd) {
        let deepest = el;
        while (deepest.lastChild) deepest = deepest.lastChild;
        walk.currentNode = deepest;
        for (let n = deepest.nodeType === 3 ? deepest : walk.previousNode(); n && text.length < SPAN; n = walk.previousNode()) text = (n.nodeValue ?? '') + text;
      } else {
        for (let n = walk.nextNode(); n && text.length < SPAN; n = walk.nextNode()) text += n.nodeValue ?? '';
      }
      return text;
    };
    const check = () => {
      const now = performance.now();
      if (tFirst === undefined && edge(false).includes(first)) tFirst = now;
      if (tFirst !== undefined && edge(true).includes(last)) return resolve({ enter: b.marks.enter, tFirst, tLast: now, timedOut: false });
      if (now - started > timeoutMs) return resolve({ enter: b.marks.enter, tFirst, tLast: now, timedOut: true });
      next();
    };
    const next = () => (b.frameClock ? requestAnimationFrame(check) : setTimeout(check, 8));
    next();
  });
}

/** Resolves when `count` agent messages are in the store's transcript DOM or the "earlier" button says so. */
function watchMessages({ marker, timeoutMs }) {
  const b = window.__bench;
  return new Promise((resolve) => {
    const started = performance.now();
    let tFirst;
    const check = () => {
      const now = performance.now();
      const log = document.querySelector('[role="log"]');
      const text = log?.textContent ?? '';
      if (tFirst === undefined && text.includes('Message 0')) tFirst = now;
      if (text.includes(marker)) return resolve({ enter: b.marks.enter, tFirst, tLast: now, timedOut: false });
      if (now - started > timeoutMs) return resolve({ enter: b.marks.enter, tFirst, tLast: now, timedOut: true });
      next();
    };
    const next = () => (b.frameClock ? requestAnimationFrame(check) : setTimeout(check, 8));
    next();
  });
}

/** Long tasks and frame gaps in [from, to], heap (after gc when exposed) and DOM size, read in the page. */
function collect({ from, to }) {
  const b = window.__bench;
  const tasks = b.longtasks.filter((t) => t.start + t.duration >= from && t.start <= to);
  const frames = b.frames.filter((t) => t >= from && t <= to);
  let maxGap = 0;
  for (let i = 1; i < frames.length; i++) maxGap = Math.max(maxGap, frames[i] - frames[i - 1]);
  const heapBeforeGc = performance.memory?.usedJSHeapSize ?? NaN;
  if (typeof window.gc === 'function') window.gc();
  return {
    longtaskSupported: b.longtaskSupported,
    longTasks: tasks.length,
    longTaskTimes: tasks.map((t) => [Math.round(t.start - from), Math.round(t.duration)]),
    longestTask: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
    ownLongTasks: tasks.filter((t) => t.where === 'self').length,
    longestOwnTask: tasks.filter((t) => t.where === 'self').reduce((m, t) => Math.max(m, t.duration), 0),
    longTaskTotal: tasks.reduce((s, t) => s + t.duration, 0),
    frames: frames.length,
    maxFrameGap: b.frameClock ? maxGap : NaN,
    heapUsed: heapBeforeGc,
    heapAfterGc: performance.memory?.usedJSHeapSize ?? NaN,
    domNodes: document.getElementsByTagName('*').length,
    items: document.querySelectorAll('[role="log"] .item').length,
  };
}

// ---- driving the workbench ------------------------------------------------------------------------------

async function chatFrame(page) {
  const outer = await page.locator('iframe.webview[src*="extensionId=switchboard-dev.switchboard"]').first().elementHandle({ timeout: 90_000 });
  const host = await outer.contentFrame();
  const inner = await host.locator('#active-frame').elementHandle({ timeout: 90_000 });
  return inner.contentFrame();
}

async function openChat(page) {
  const item = page.locator('.part.activitybar .action-item[role="tab"]').filter({ has: page.locator('a.action-label[aria-label^="Switchboard"]') }).first();
  await item.waitFor({ state: 'visible', timeout: 90_000 });
  if ((await item.getAttribute('aria-selected')) !== 'true') await item.click();
  const frame = await chatFrame(page);
  await frame.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: 90_000 });
  await frame.evaluate(installProbe, FRAME_CLOCK);
  return frame;
}

/** Picks `agent` and starts a new session with it; resolves when the new tab is selected and empty. */
async function freshSession(frame, agent) {
  const picker = frame.getByRole('combobox', { name: 'Agent' });
  for (let i = 0; i < 150 && !(await picker.locator('option').allTextContents()).includes(agent); i++) await sleep(200);
  const tabs = frame.getByRole('tab');
  const before = await tabs.count();
  const current = await picker.evaluate((el) => el.selectedOptions[0]?.textContent ?? '');
  if (current !== agent) {
    await picker.selectOption({ label: agent });
    // With a session open, choosing another agent starts a session with it.
    for (let i = 0; before > 0 && i < 150 && (await tabs.count()) === before; i++) await sleep(200);
  }
  if ((await tabs.count()) === before) await frame.getByRole('button', { name: 'New session', exact: true }).click();
  for (let i = 0; i < 300; i++) {
    if ((await tabs.count()) > before && (await tabs.last().getAttribute('aria-selected')) === 'true') break;
    await sleep(200);
  }
  await frame.getByText('Ask the agent anything').waitFor({ timeout: 60_000 });
}

async function send(frame, text) {
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.click();
  await box.fill(text);
  await box.press('Enter');
}

async function waitIdle(frame, timeoutMs = 120_000) {
  const stop = frame.getByRole('button', { name: 'Stop', exact: true });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await stop.isDisabled()) return;
    await sleep(200);
  }
}

/** One streamed answer in a new session: `command` sent to `agent`, timed from `first` to `last` shown. */
/**
 * gc() until the heap stops shrinking (at most 4 times), so a run starts clean: one gc() leaves the
 * garbage of the previous run that only a second collection frees (DOM wrappers, weak maps), and the
 * first measured run then paid for a 60-80 ms major GC of it.
 */
async function settleHeap(frame) {
  await frame.evaluate(async () => {
    if (typeof window.gc !== 'function') return;
    let before = Infinity;
    for (let i = 0; i < 4; i++) {
      window.gc();
      await new Promise((r) => setTimeout(r, 50));
      const now = performance.memory?.usedJSHeapSize ?? 0;
      if (now > before * 0.99) return;
      before = now;
    }
  });
}

async function streamRun(frame, { agent, command, first, last, n, trace }) {
  await freshSession(frame, agent);
  await settleHeap(frame);
  const heapStart = await frame.evaluate(() => performance.memory?.usedJSHeapSize ?? NaN);
  if (trace) await trace.start();
  const watching = frame.evaluate(watchStream, { first, last, timeoutMs: 300_000 });
  await send(frame, command);
  const t = await watching;
  // Collected before any locator query: Playwright's role and visibility checks run in the webview's
  // document and take 20-60 ms on a transcript of thousands of nodes, which would count as our long tasks.
  await sleep(COLLECT_AFTER_MS);
  if (trace) await trace.stop();
  const c = await frame.evaluate(collect, { from: t.enter ?? t.tFirst, to: t.tLast + COLLECT_AFTER_MS });
  await waitIdle(frame);
  return { ...t, ...c, heapStart, n, command, renderMs: t.tLast - t.tFirst, sendToFirst: t.tFirst - (t.enter ?? t.tFirst), chunksPerSec: n / ((t.tLast - t.tFirst) / 1000) };
}

async function transcriptRun(frame, page, n, trace, typingTrace) {
  await freshSession(frame, 'Bench Transcript Agent');
  await settleHeap(frame);
  const heapStart = await frame.evaluate(() => performance.memory?.usedJSHeapSize ?? NaN);
  if (trace) await trace.start();
  const watching = frame.evaluate(watchMessages, { marker: `Message ${n - 1}`, timeoutMs: 300_000 });
  await send(frame, `messages ${n}`);
  const t = await watching;
  await sleep(COLLECT_AFTER_MS);
  if (trace) await trace.stop();
  const build = await frame.evaluate(collect, { from: t.enter ?? t.tFirst, to: t.tLast + COLLECT_AFTER_MS });
  await waitIdle(frame);
  const earlier = await frame.getByRole('button', { name: /Show earlier messages/ }).first().innerText().catch(() => '');

  // Typing into "Message" on top of the transcript: key-to-paint latency per character.
  const box = frame.getByRole('textbox', { name: 'Message' });
  await box.click();
  await frame.evaluate(() => {
    window.__bench.keyLatencies = [];
    window.__bench.measureKeys = true;
  });
  if (typingTrace) await typingTrace.start();
  const typeFrom = await frame.evaluate(() => performance.now());
  await box.pressSequentially('the quick brown fox jumps over', { delay: 30 });
  await sleep(300);
  if (typingTrace) await typingTrace.stop();
  const keys = await frame.evaluate(() => {
    window.__bench.measureKeys = false;
    return window.__bench.keyLatencies;
  });
  const typeTo = await frame.evaluate(() => performance.now());
  const typing = await frame.evaluate(collect, { from: typeFrom, to: typeTo });
  await box.fill('');

  // Scrolling the transcript from the bottom to the top and back (wheel, as a user does).
  const scrollFrom = await frame.evaluate(() => performance.now());
  const log = frame.getByRole('log', { name: 'Transcript' });
  await log.hover();
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, -600);
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 600);
  await sleep(300);
  const scrollTo = await frame.evaluate(() => performance.now());
  const scrolling = await frame.evaluate(collect, { from: scrollFrom, to: scrollTo });

  // A streamed answer appended to the long transcript.
  const m = 1000;
  const watchingStream = frame.evaluate(watchStream, { first: 'chunk 0', last: `chunk ${m - 1}`, timeoutMs: 300_000 });
  await send(frame, `stream ${m}`);
  const s = await watchingStream;
  await sleep(COLLECT_AFTER_MS);
  const streamOnTop = await frame.evaluate(collect, { from: s.enter ?? s.tFirst, to: s.tLast + COLLECT_AFTER_MS });
  await waitIdle(frame);
  return {
    n,
    heapStart,
    build: { ...t, ...build, renderMs: t.tLast - t.tFirst, sendToLast: t.tLast - (t.enter ?? t.tFirst) },
    earlier,
    keys,
    typing,
    scrolling,
    streamOnTop: { ...s, ...streamOnTop, n: m, renderMs: s.tLast - s.tFirst, chunksPerSec: m / ((s.tLast - s.tFirst) / 1000) },
  };
}

// ---- report ---------------------------------------------------------------------------------------------

const MB = 1024 * 1024;

function report(env, streams, shapes, tr) {
  const rate = median(streams.map((r) => r.chunksPerSec));
  // End to end: from the Enter that sent the prompt to the last chunk in the DOM (includes the agent, the
  // extension host and the first paint, which may already hold many chunks: the honest lower bound).
  const rateE2e = median(streams.map(e2eRate));
  const worstTask = Math.max(...streams.map((r) => r.longestTask));
  const lines = [
    CPU_THROTTLE > 1 ? `## Chat panel on a ${CPU_THROTTLE}x slower renderer (DevTools CPU throttling)` : '## Chat panel',
    '',
    ...(CPU_THROTTLE > 1
      ? [`The same bench with Chromium throttling the renderer's CPU ${CPU_THROTTLE}x, to stand for a slower machine than this one: a stress figure beside the target, which is set on this 2-core machine.`, '']
      : []),
    `Real workbench: the packaged VSIX in code-server ${env.codeServer} (VS Code 1.100.3), headless Chromium ${env.browser}, measured inside the chat webview's document (PerformanceObserver \`longtask\`, ${FRAME_CLOCK ? 'a requestAnimationFrame clock' : 'no frame clock (watchers poll with timers)'}, \`performance.memory\` with precise memory info, and \`gc()\` until the heap stops shrinking before each run). Node ${process.version}, ${os.cpus().length} cores, load average ${env.load} at the start (other jobs share the machine: compare rows of one run, not runs); ${new Date().toISOString().slice(0, 10)}. \`node bench/chat-render.bench.mjs --chunks ${CHUNKS}${CPU_THROTTLE > 1 ? ` --cpu-throttle ${CPU_THROTTLE}` : ''}${FRAME_CLOCK ? '' : ' --no-frame-clock'}\`.`,
    '',
    `Target (issue 13): **15,000 chunks/s end to end, no main-thread task over 50 ms**. Result (median of ${streams.length}): **${fmt(rateE2e)} chunks/s end to end** (Enter → last chunk in the DOM) and ${fmt(rate)} chunks/s counted from the first chunk shown — ${rateE2e >= 15_000 ? 'meets' : rate >= 15_000 ? 'meets the rate target only when counted from the first paint, not end to end' : 'misses'}${rateE2e >= 15_000 ? ' the rate target' : ''}; longest task **${fmt(worstTask)} ms** — ${worstTask <= 50 ? 'meets' : 'misses'} the 50 ms target${streams.some((r) => !r.longtaskSupported) ? ' (longtask observer unsupported: n/a)' : ''}. The first run in a fresh webview is the slowest (JIT, first Markdown/highlighter use).`,
    '',
    `### Streaming: the demo agent's \`stream ${CHUNKS}\` (${CHUNKS.toLocaleString('en')} chunks of ~10 characters into one message), a new session per run`,
    '',
    '| run | Enter → first chunk shown | first → last chunk shown | chunks/s (first → last) | chunks/s end to end (Enter → last) | long tasks (≥ 50 ms) | longest task | total long-task time | longest frame gap | webview heap: start → end (after gc) | DOM nodes |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...streams.map(
      (r, i) =>
        `| ${i + 1}${r.timedOut ? ' (timed out)' : ''} | ${fmt(r.sendToFirst)} ms | ${fmt(r.renderMs)} ms | ${fmt(r.chunksPerSec)} | ${fmt(e2eRate(r))} | ${tasksCell(r)} | ${fmt(r.longestTask)} ms | ${fmt(r.longTaskTotal)} ms | ${fmt(r.maxFrameGap)} ms | ${fmt(r.heapStart / MB, 1)} → ${fmt(r.heapAfterGc / MB, 1)} MB | ${r.domNodes} |`,
    ),
    '',
  ];
  if (shapes.length) {
    lines.push(
      '### Other Markdown shapes, streamed (bench/lib/transcript-agent.mjs), a new session each',
      '',
      '| command | what | chunks | Enter → last shown | chunks/s end to end | long tasks (≥ 50 ms) | longest task | longest frame gap | DOM nodes |',
      '|---|---|---|---|---|---|---|---|---|',
      ...shapes.map(
        (r) =>
          `| \`${r.command}\`${r.timedOut ? ' (timed out)' : ''} | ${SHAPES.find((x) => x.command === r.command)?.what ?? ''} | ${r.n} | ${fmt(r.tLast - (r.enter ?? r.tFirst))} ms | ${fmt(e2eRate(r))} | ${tasksCell(r)} | ${fmt(r.longestTask)} ms | ${fmt(r.maxFrameGap)} ms | ${r.domNodes} |`,
      ),
      '',
    );
  }
  if (tr) {
    const keys = tr.keys;
    const b = tr.build;
    lines.push(
      `### A ${tr.n.toLocaleString('en')}-message transcript (bench/lib/transcript-agent.mjs: \`messages ${tr.n}\`, each a few lines of Markdown, all sent in one turn)`,
      '',
      '| what | time | long tasks (≥ 50 ms) | longest task | longest frame gap | notes |',
      '|---|---|---|---|---|---|',
      `| build: Enter → message ${tr.n - 1} shown | ${fmt(b.sendToLast)} ms | ${tasksCell(b)} | ${fmt(b.longestTask)} ms | ${fmt(b.maxFrameGap)} ms | ${b.items} items in the DOM; ${tr.earlier ? `"${tr.earlier.trim()}"` : 'no "Show earlier" button'}; ${b.domNodes} DOM nodes; heap ${fmt(tr.heapStart / MB, 1)} → ${fmt(b.heapAfterGc / MB, 1)} MB after gc |`,
      `| typing 30 characters into "Message" (30 ms apart) | key → next frame: median ${fmt(median(keys))} ms, max ${fmt(Math.max(...keys))} ms (${keys.length} keys) | ${tasksCell(tr.typing)} | ${fmt(tr.typing.longestTask)} ms | ${fmt(tr.typing.maxFrameGap)} ms | |`,
      `| scrolling the transcript up and back (40 wheel steps) | | ${tasksCell(tr.scrolling)} | ${fmt(tr.scrolling.longestTask)} ms | ${fmt(tr.scrolling.maxFrameGap)} ms | |`,
      `| \`stream ${tr.streamOnTop.n}\` appended to it | Enter → last ${fmt(tr.streamOnTop.tLast - (tr.streamOnTop.enter ?? tr.streamOnTop.tFirst))} ms = **${fmt(e2eRate(tr.streamOnTop))} chunks/s** end to end (first → last shown: ${fmt(tr.streamOnTop.renderMs)} ms) | ${tasksCell(tr.streamOnTop)} | ${fmt(tr.streamOnTop.longestTask)} ms | ${fmt(tr.streamOnTop.maxFrameGap)} ms | ${tr.streamOnTop.domNodes} DOM nodes after |`,
      '',
    );
  }
  const rates = streams.map(e2eRate);
  lines.push(
    '### Reading',
    '',
    `- Spread: end-to-end rates of this run range ${fmt(Math.min(...rates))}–${fmt(Math.max(...rates))} chunks/s on the same input; the machine is shared (load average ${env.load}), so treat one run as a sample, not a verdict.`,
    `- What keeps a chunk's cost bounded: finished Markdown blocks are rendered once (small ones that arrive together in one markdown-it/DOMPurify call), a live paragraph or list longer than 2 KB is cut (paragraph pieces shown inline), an open code fence streams as text pieces of ~4 KB of which only the last changes, Markdown work shares an 8 ms budget per frame, and the transcript is virtualized (only the items near the viewport are in the DOM)${tr ? ` (${tr.build.items} of ${tr.n} items in the DOM)` : ''}.`,
    '- Long tasks: "in the webview" counts the tasks the browser attributes to the chat webview\'s own document (PerformanceLongTaskTiming name `self`); the others ran another frame on the same renderer thread (here the workbench page and its webview iframes share one process). `BENCH_TRACE=<command>` records a Chrome trace of one shape to see what a long task was.',
    '- Markdown engine: markdown-it 14 (with entities 8\'s decoder, see webview-ui/bundle-aliases.mjs). markdown-it 15 rendered the 61 KB of `blocks 500` at 31 ms against 16 ms for 14 (Node, 2026-11-23), and with it this table showed `blocks 500` at 1000–2600 ms with 81–101 ms tasks against 760–1007 ms and 0–71 ms now.',
    '- Memory per chunk: Markdown never reads the whole message again while it streams: it takes the text the host’s `appendText` ops appended (webview-ui/src/textStreams.ts) and keeps only the unfinished text (under 8 KB for a 250 KB code block, unit-tested), so a long message is not copied each frame.',
    '- Not measured here: the extension host side (see the protocol engine and bridges sections).',
    '',
  );
  return lines.join('\n');
}

/** A throttled run has a section of its own, so the real machine's figures stay beside it. */
const SECTION = CPU_THROTTLE > 1 ? `chat-throttled-${CPU_THROTTLE}x` : 'chat';

function writeSection(markdown) {
  const file = join(REPO, 'bench', 'RESULTS.md');
  const start = `<!-- ${SECTION}:start -->`;
  const end = `<!-- ${SECTION}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const i = old.indexOf(start);
  const j = old.indexOf(end);
  const next = i >= 0 && j > i ? old.slice(0, i) + block + old.slice(j + end.length) : `${old.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}

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
  const frame = await openChat(page);
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
    tr = await transcriptRun(frame, page, MESSAGES, trace, traced('typing') && tracer(browser, page, 'typing'));
    say(`${MESSAGES} messages: ${fmt(tr.build.sendToLast)} ms, longest task ${fmt(tr.build.longestTask)} ms; typing median ${fmt(median(tr.keys))} ms; stream on top ${fmt(e2eRate(tr.streamOnTop))} chunks/s end to end`);
  }
  let long;
  if (LONG > 0) {
    const trace = traced('long') && tracer(browser, page, 'long');
    long = await longSessionRun(frame, LONG, { freshSession, send, waitIdle, settleHeap, collect, watchMessages, sleep, trace });
    say(`session ${LONG}: open ${fmt(long.open.t1 - long.open.t0)} ms, scroll to the start: longest task ${fmt(long.scroll.longestTask)} ms, heap ${fmt(long.open.heapAfterGc / MB, 1)} MB`);
  }
  await page.screenshot({ path: join(TEST_RESULTS, 'bench', 'chat-render.png') }).catch(() => {});
  let md = report({ codeServer: '4.100.3', browser: browser.version(), load }, streams, shapes, tr);
  if (long) md += `\n${longSessionReport(long, tasksCell)}`;
  console.log(`\n${md}\n`);
  writeFileSync(join(TEST_RESULTS, 'bench', 'chat-render.json'), JSON.stringify({ streams, shapes, transcript: tr, long }, null, 2));
  if (!opts['no-write']) writeSection(md);
}

/**
 * A Chrome trace with V8 CPU samples, to test-results/bench/trace-<what>.json. BENCH_TRACE_LIGHT=1 leaves the
 * samples out: the timeline alone (tasks, script calls, style, layout, paint) slows the page far less.
 */
function tracer(browser, page, what) {
  return { start: () => startTrace(browser, page, what), stop: () => browser.stopTracing() };
}

function startTrace(browser, page, what) {
  const samples = process.env.BENCH_TRACE_LIGHT ? [] : ['v8', 'blink', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.gc'];
  return browser.startTracing(page, {
    path: join(TEST_RESULTS, 'bench', `trace-${what}.json`),
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', ...samples],
  });
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
