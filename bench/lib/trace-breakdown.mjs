#!/usr/bin/env node
/* global process, console */
// What the renderer main thread's tasks in a Chrome trace (BENCH_TRACE of chat-render.bench.mjs) spent their
// CPU on, by trace event, self time (an event's thread time less its children's). Two views:
//   keys <trace>        the tasks that dispatched a keydown, and the frame tasks (paint, commit) between them:
//                       their mean CPU, and per task the mean self time of each event (BENCH_TRACE=typing)
//   long <trace> [ms]   each task of at least `ms` (default 50) thread CPU, with the self time of its ten largest
//                       kinds of event (script calls, style, layout, paint, ...)
// Light traces (BENCH_TRACE_LIGHT=1) are the ones to read: V8 samples inflate every figure several times at 4x.
// Usage: node bench/lib/trace-breakdown.mjs keys|long <trace.json> [ms]
import { readFileSync } from 'node:fs';

/** The busiest CrRendererMain thread's complete events, in order, and its RunTask events. */
function mainThread(events) {
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const wall = new Map();
  for (const e of events) {
    const k = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'RunTask' && names.get(k) === 'CrRendererMain') wall.set(k, (wall.get(k) ?? 0) + e.dur);
  }
  const main = [...wall].sort((a, b) => b[1] - a[1])[0]?.[0];
  const xs = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  return { xs, tasks: xs.filter((e) => e.name === 'RunTask') };
}

/** The events inside each task. */
function childrenOf(xs, tasks) {
  const kids = new Map(tasks.map((t) => [t, []]));
  let i = 0;
  for (const e of xs) {
    if (e.name === 'RunTask') continue;
    while (i < tasks.length && tasks[i].ts + tasks[i].dur < e.ts) i++;
    const t = tasks[i];
    if (t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur) kids.get(t).push(e);
  }
  return kids;
}

const cpu = (e) => (e.tdur ?? e.dur) / 1000;

/** An event's name, with the event type of a dispatch and the script and function of a call. */
function label(e) {
  const d = e.args?.data;
  if (e.name === 'EventDispatch') return `EventDispatch:${d?.type}`;
  if (e.name === 'FunctionCall') return `FunctionCall:${(d?.url ?? '').split('/').pop()}:${d?.functionName ?? ''}`;
  return e.name;
}

/** Adds the self time of each event of `kids` (nested by time) to `into`. */
function addSelfTimes(kids, into) {
  const open = [];
  for (const e of kids) {
    while (open.length && open[open.length - 1].end <= e.ts) open.pop();
    const key = label(e);
    if (open.length) into.set(open[open.length - 1].key, (into.get(open[open.length - 1].key) ?? 0) - cpu(e));
    into.set(key, (into.get(key) ?? 0) + cpu(e));
    open.push({ end: e.ts + e.dur, key });
  }
}

const isType = (type) => (e) => e.name === 'EventDispatch' && e.args?.data?.type === type;
const FRAME = new Set(['PrePaint', 'Paint', 'Commit', 'Layerize']);

function kind(kids) {
  if (kids.some(isType('keydown'))) return 'key';
  if (kids.some(isType('keyup'))) return 'keyup';
  if (kids.some((e) => FRAME.has(e.name))) return 'frame';
  return 'other';
}

function keys(xs, tasks) {
  const kids = childrenOf(xs, tasks);
  for (const which of ['key', 'keyup', 'frame']) {
    const self = new Map();
    let n = 0;
    let total = 0;
    for (const t of tasks) {
      if (kind(kids.get(t)) !== which) continue;
      n++;
      total += cpu(t);
      addSelfTimes(kids.get(t), self);
    }
    if (!n) continue;
    console.log(`\n${which} tasks: ${n}, mean thread CPU ${(total / n).toFixed(2)} ms; mean self time per task:`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 14)) if (v / n >= 0.05) console.log(`${(v / n).toFixed(2).padStart(8)} ms  ${k}`);
  }
}

const SHOWN = new Set(['FunctionCall', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'Layerize', 'Commit', 'EventDispatch', 'HitTest', 'MajorGC', 'MinorGC', 'ParseHTML']);

function long(xs, tasks, ms) {
  const kids = childrenOf(xs, tasks);
  for (const t of tasks) {
    if (cpu(t) < ms) continue;
    console.log(`\ntask at ${(t.ts / 1000).toFixed(0)} ms: thread CPU ${cpu(t).toFixed(1)} ms, wall ${(t.dur / 1000).toFixed(1)} ms`);
    const self = new Map();
    addSelfTimes(kids.get(t), self);
    const shown = [...self].filter(([k]) => SHOWN.has(k.split(':')[0]));
    for (const [k, v] of shown.sort((x, y) => y[1] - x[1]).slice(0, 10)) console.log(`${v.toFixed(1).padStart(8)} ms  ${k}`);
  }
}

const [mode, file, ms] = process.argv.slice(2);
if (!['keys', 'long'].includes(mode) || !file) {
  console.error('Usage: node bench/lib/trace-breakdown.mjs keys|long <trace.json> [ms]');
  process.exit(2);
}
const raw = JSON.parse(readFileSync(file, 'utf8'));
const { xs, tasks } = mainThread(Array.isArray(raw) ? raw : raw.traceEvents);
if (mode === 'keys') keys(xs, tasks);
else long(xs, tasks, Number(ms ?? 50));
