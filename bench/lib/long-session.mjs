/* global document, performance, requestAnimationFrame, Event */
// The chat bench's day-long session (issue: a whole day's session scrolls freely): the transcript agent's
// `session <n>` (prompts, answers, tool calls) built in one turn, then measured in the webview: opening it
// (a tab switch renders it from scratch), find reaching its 18th item, scrolling from the end to the first
// item without a click, and the heap.
import { sleep } from '../../scripts/lib/proc.mjs';
import { collect, watchMessages } from './chat-probe.mjs';
import { fmt, MB, tasksCell } from './chat-report.mjs';
import { freshSession, send, settleHeap, waitIdle } from './chat-workbench.mjs';

/** In the page: clicks tab `index`, resolves when the log shows `marker` (or after `timeoutMs`). */
function openTab({ index, marker, timeoutMs }) {
  return new Promise((resolve) => {
    const tabs = document.querySelectorAll('[role="tab"]');
    const t0 = performance.now();
    tabs[index].click();
    const check = () => {
      const log = document.querySelector('[role="log"]');
      const now = performance.now();
      if ((log?.textContent ?? '').includes(marker) || now - t0 > timeoutMs) return resolve({ t0, t1: now, shown: (log?.textContent ?? '').includes(marker), items: log?.querySelectorAll('.item').length ?? 0 });
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** In the page: types `query` into the open find box, resolves when the log shows it and the count says so. */
function findIt({ query, timeoutMs }) {
  return new Promise((resolve) => {
    const input = document.querySelector('input[aria-label="Find in session"]');
    const t0 = performance.now();
    input.value = query;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const check = () => {
      const log = document.querySelector('[role="log"]');
      const count = document.querySelector('.find-count')?.textContent ?? '';
      const now = performance.now();
      const done = (log?.textContent ?? '').includes(query) && /of/.test(count);
      if (done || now - t0 > timeoutMs) return resolve({ t0, t1: now, found: done, count });
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** In the page: scrolls the log from where it is to its top, two viewports a frame, until `first` shows. */
async function scrollToStart({ first, maxFrames }) {
  const el = document.querySelector('[role="log"]');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const t0 = performance.now();
  let frames = 0;
  while (el.scrollTop > 0 && frames < maxFrames) {
    el.scrollTop = Math.max(0, el.scrollTop - 2 * el.clientHeight);
    await frame();
    frames++;
  }
  for (let i = 0; i < 120 && !el.textContent.includes(first); i++) await frame();
  return { t0, t1: performance.now(), frames, reached: el.textContent.includes(first), items: el.querySelectorAll('.item').length };
}

export async function longSessionRun(frame, n, { trace }) {
  await freshSession(frame, 'Bench Transcript Agent');
  await settleHeap(frame);
  const heapStart = await frame.evaluate(() => performance.memory?.usedJSHeapSize ?? NaN);
  const marker = `Message ${n - 1}`;
  const watching = frame.evaluate(watchMessages, { marker, timeoutMs: 600_000 });
  await send(frame, `session ${n}`);
  const built = await watching;
  await waitIdle(frame, 600_000);
  await sleep(300);
  const build = await frame.evaluate(collect, { from: built.enter ?? built.tFirst, to: built.tLast + 300 });

  // Open: another tab, then this one again (rendered from scratch, as after a reload).
  const tabs = frame.getByRole('tab');
  const count = await tabs.count();
  await frame.evaluate(openTab, { index: count - 2, marker: '', timeoutMs: 10_000 });
  await sleep(500);
  await settleHeap(frame);
  const open = await frame.evaluate(openTab, { index: count - 1, marker, timeoutMs: 60_000 });
  await sleep(300);
  const opened = await frame.evaluate(collect, { from: open.t0, to: open.t1 + 300 });

  // Find from the end to item 17.
  await frame.getByRole('textbox', { name: 'Message' }).click();
  await frame.getByRole('textbox', { name: 'Message' }).press('Control+f');
  await frame.locator('input[aria-label="Find in session"]').waitFor({ timeout: 30_000 });
  const f = await frame.evaluate(findIt, { query: 'needle-17', timeoutMs: 60_000 });
  await sleep(300);
  const finding = await frame.evaluate(collect, { from: f.t0, to: f.t1 + 300 });
  await frame.locator('input[aria-label="Find in session"]').press('Escape');

  // Back to the end, then scroll to the first item.
  await frame.evaluate(() => {
    const el = document.querySelector('[role="log"]');
    el.scrollTop = el.scrollHeight;
  });
  await sleep(1000);
  await frame.evaluate(() => {
    const el = document.querySelector('[role="log"]');
    el.scrollTop = el.scrollHeight;
  });
  await sleep(500);
  if (trace) await trace.start();
  const s = await frame.evaluate(scrollToStart, { first: 'Message 0:', maxFrames: 5000 });
  if (trace) await trace.stop();
  await sleep(300);
  const scrolling = await frame.evaluate(collect, { from: s.t0, to: s.t1 + 300 });
  return { n, heapStart, build: { ...built, ...build }, open: { ...open, ...opened }, find: { ...f, ...finding }, scroll: { ...s, ...scrolling } };
}

export function longSessionReport(r) {
  const b = r.build;
  return [
    `### A day's session: ${r.n.toLocaleString('en')} items with tool calls (bench/lib/transcript-agent.mjs: \`session ${r.n}\`, one turn)`,
    '',
    '| what | time | long tasks (≥ 50 ms) | longest task | longest frame gap | notes |',
    '|---|---|---|---|---|---|',
    `| build: Enter → item ${r.n - 1} shown | ${fmt(b.tLast - (b.enter ?? b.tFirst))} ms | ${tasksCell(b)} | ${fmt(b.longestTask)} ms | ${fmt(b.maxFrameGap)} ms | ${b.items} items in the DOM, ${b.domNodes} DOM nodes |`,
    `| open: its tab clicked → its last item shown (rendered from scratch) | **${fmt(r.open.t1 - r.open.t0)} ms**${r.open.shown ? '' : ' (not shown: timed out)'} | ${tasksCell(r.open)} | ${fmt(r.open.longestTask)} ms | ${fmt(r.open.maxFrameGap)} ms | ${r.open.items} items in the DOM; webview heap ${fmt(r.heapStart / MB, 1)} MB before the session → **${fmt(r.open.heapAfterGc / MB, 1)} MB** after gc |`,
    `| find: "needle-17" typed → item 17 shown, counted | ${fmt(r.find.t1 - r.find.t0)} ms${r.find.found ? '' : ' (not found)'} | ${tasksCell(r.find)} | ${fmt(r.find.longestTask)} ms | ${fmt(r.find.maxFrameGap)} ms | count "${r.find.count}" |`,
    `| scroll from the end to the first item, two viewports a frame, no click | ${fmt(r.scroll.t1 - r.scroll.t0)} ms, ${r.scroll.frames} frames${r.scroll.reached ? '' : ' (first item not reached)'} | ${tasksCell(r.scroll)} | ${fmt(r.scroll.longestTask)} ms | ${fmt(r.scroll.maxFrameGap)} ms | ${r.scroll.items} items in the DOM at the top; heap ${fmt(r.scroll.heapAfterGc / MB, 1)} MB after gc |`,
    '',
  ].join('\n');
}
