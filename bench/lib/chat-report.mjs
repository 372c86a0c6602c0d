/* global process */
// The chat bench's report: the Markdown tables of its runs, and the section of bench/RESULTS.md they replace.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as os from 'node:os';
import { REPO } from '../../scripts/lib/paths.mjs';
import { benchLib } from './compiled.mjs';

const { median } = benchLib('stats');

export const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
/** "N (k in the webview)": long tasks in the window, and how many ran the chat webview's own document. */
export const tasksCell = (r) => (r.longTasks ? `${r.longTasks} (${r.ownLongTasks} in the webview)` : '0');
/** Chunks per second from Enter to the last chunk shown. */
export const e2eRate = (r) => r.n / ((r.tLast - (r.enter ?? r.tFirst)) / 1000);

export const MB = 1024 * 1024;

/**
 * The Markdown report. `env`: the code-server and Chromium versions, the load average at the start, and the
 * bench's setup (chunks of the stream, CPU throttling, frame clock, the Markdown shapes it streams).
 */
export function report(env, streams, shapes, tr) {
  const rate = median(streams.map((r) => r.chunksPerSec));
  // End to end: from the Enter that sent the prompt to the last chunk in the DOM (includes the agent, the
  // extension host and the first paint, which may already hold many chunks: the honest lower bound).
  const rateE2e = median(streams.map(e2eRate));
  const worstTask = Math.max(...streams.map((r) => r.longestTask));
  const lines = [
    env.cpuThrottle > 1 ? `## Chat panel on a ${env.cpuThrottle}x slower renderer (DevTools CPU throttling)` : '## Chat panel',
    '',
    ...(env.cpuThrottle > 1
      ? [`The same bench with Chromium throttling the renderer's CPU ${env.cpuThrottle}x, to stand for a slower machine than this one: a stress figure beside the target, which is set on this 2-core machine.`, '']
      : []),
    `Real workbench: the packaged VSIX in code-server ${env.codeServer} (VS Code 1.100.3), headless Chromium ${env.browser}, measured inside the chat webview's document (PerformanceObserver \`longtask\`, ${env.frameClock ? 'a requestAnimationFrame clock' : 'no frame clock (watchers poll with timers)'}, \`performance.memory\` with precise memory info, and \`gc()\` until the heap stops shrinking before each run). Node ${process.version}, ${os.cpus().length} cores, load average ${env.load} at the start (other jobs share the machine: compare rows of one run, not runs); ${new Date().toISOString().slice(0, 10)}. \`node bench/chat-render.bench.mjs --chunks ${env.chunks}${env.cpuThrottle > 1 ? ` --cpu-throttle ${env.cpuThrottle}` : ''}${env.frameClock ? '' : ' --no-frame-clock'}\`.`,
    '',
    `Target (issue 13): **15,000 chunks/s end to end, no main-thread task over 50 ms**. Result (median of ${streams.length}): **${fmt(rateE2e)} chunks/s end to end** (Enter → last chunk in the DOM) and ${fmt(rate)} chunks/s counted from the first chunk shown — ${rateE2e >= 15_000 ? 'meets' : rate >= 15_000 ? 'meets the rate target only when counted from the first paint, not end to end' : 'misses'}${rateE2e >= 15_000 ? ' the rate target' : ''}; longest task **${fmt(worstTask)} ms** — ${worstTask <= 50 ? 'meets' : 'misses'} the 50 ms target${streams.some((r) => !r.longtaskSupported) ? ' (longtask observer unsupported: n/a)' : ''}. The first run in a fresh webview is the slowest (JIT, first Markdown/highlighter use).`,
    '',
    `### Streaming: the demo agent's \`stream ${env.chunks}\` (${env.chunks.toLocaleString('en')} chunks of ~10 characters into one message), a new session per run`,
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
          `| \`${r.command}\`${r.timedOut ? ' (timed out)' : ''} | ${env.shapeDefs.find((x) => x.command === r.command)?.what ?? ''} | ${r.n} | ${fmt(r.tLast - (r.enter ?? r.tFirst))} ms | ${fmt(e2eRate(r))} | ${tasksCell(r)} | ${fmt(r.longestTask)} ms | ${fmt(r.maxFrameGap)} ms | ${r.domNodes} |`,
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
      `| scrolling the transcript up and back (40 wheel steps of 600 px${tr.scrolling.pace ? `, one every ${tr.scrolling.pace} ms` : ''}) | | ${tasksCell(tr.scrolling)} | ${fmt(tr.scrolling.longestTask)} ms | ${fmt(tr.scrolling.maxFrameGap)} ms | ${tr.scrolling.longTasks ? `median long task ${fmt(median(tr.scrolling.longTaskTimes.map(([, d]) => d)))} ms` : ''} |`,
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

/** Writes the report between its markers in bench/RESULTS.md. */
export function writeSection(markdown, cpuThrottle) {
  // A throttled run has a section of its own, so the real machine's figures stay beside it.
  const section = cpuThrottle > 1 ? `chat-throttled-${cpuThrottle}x` : 'chat';
  const file = join(REPO, 'bench', 'RESULTS.md');
  const start = `<!-- ${section}:start -->`;
  const end = `<!-- ${section}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const i = old.indexOf(start);
  const j = old.indexOf(end);
  const next = i >= 0 && j > i ? old.slice(0, i) + block + old.slice(j + end.length) : `${old.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
