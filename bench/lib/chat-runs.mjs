/* global window, performance */
// The chat bench's measured runs: one streamed answer in a new session, and a long transcript with typing,
// scrolling and a stream on top of it.
import { sleep } from '../../scripts/lib/proc.mjs';
import { collect, watchMessages, watchStream } from './chat-probe.mjs';
import { freshSession, send, settleHeap, waitIdle } from './chat-workbench.mjs';

/** Long tasks are counted until this long after the last chunk is shown (end-of-turn work included). */
const COLLECT_AFTER_MS = 300;

/** One streamed answer in a new session: `command` sent to `agent`, timed from `first` to `last` shown. */
export async function streamRun(frame, { agent, command, first, last, n, trace }) {
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

/**
 * A long transcript (`messages <n>`) in a new session, then typing on top of it, scrolling it and a stream
 * appended. `scrollPace` (ms): the wait after each wheel step; 0 sends the next as soon as the page took the last.
 */
export async function transcriptRun(frame, page, n, trace, typingTrace, scrollTrace, scrollPace = 0) {
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

  // Scrolling the transcript from the bottom to the top and back (wheel, as a user does). Unpaced, how many
  // steps one frame takes (and so what each frame mounts) follows the machine's load; paced, each step has
  // frames of its own.
  const scrollFrom = await frame.evaluate(() => performance.now());
  const log = frame.getByRole('log', { name: 'Transcript' });
  await log.hover();
  if (scrollTrace) await scrollTrace.start();
  for (const dy of [-600, 600]) {
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel(0, dy);
      if (scrollPace > 0) await sleep(scrollPace);
    }
  }
  await sleep(300);
  if (scrollTrace) await scrollTrace.stop();
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
    scrolling: { ...scrolling, pace: scrollPace },
    streamOnTop: { ...s, ...streamOnTop, n: m, renderMs: s.tLast - s.tFirst, chunksPerSec: m / ((s.tLast - s.tFirst) / 1000) },
  };
}
