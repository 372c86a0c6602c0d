/* global process */
// Chrome traces of the chat bench's runs, as BENCH_TRACE asks (see chat-render.bench.mjs).
import { join } from 'node:path';
import { TEST_RESULTS } from '../../scripts/lib/paths.mjs';

/** Whether BENCH_TRACE asks for a trace of `what` (a command, or stream, messages, long). */
export const traced = (what) => process.env.BENCH_TRACE === 'all' || (process.env.BENCH_TRACE !== undefined && process.env.BENCH_TRACE !== '' && what.startsWith(process.env.BENCH_TRACE));

/**
 * A Chrome trace with V8 CPU samples, to test-results/bench/trace-<what>.json. BENCH_TRACE_LIGHT=1 leaves the
 * samples out: the timeline alone (tasks, script calls, style, layout, paint) slows the page far less.
 */
export function tracer(browser, page, what) {
  return { start: () => startTrace(browser, page, what), stop: () => browser.stopTracing() };
}

function startTrace(browser, page, what) {
  const samples = process.env.BENCH_TRACE_LIGHT ? [] : ['v8', 'blink', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.gc'];
  return browser.startTracing(page, {
    path: join(TEST_RESULTS, 'bench', `trace-${what}.json`),
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', ...samples],
  });
}
