/* global document, window, performance, requestAnimationFrame, PerformanceObserver, setTimeout */
// The chat bench's instrumentation inside the chat webview's document (each function is passed to
// frame.evaluate, so it reads only its argument and the page): long tasks, a frame clock, the Enter that sent
// a prompt, key-to-paint latency, watchers that time a streamed answer or a long transcript, and what a run collects.

/** Installs the long-task observer and a frame clock once per document. */
export function installProbe(frameClock) {
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
export function watchStream({ first, last, timeoutMs }) {
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
export function watchMessages({ marker, timeoutMs }) {
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
export function collect({ from, to }) {
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
