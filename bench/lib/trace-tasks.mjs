#!/usr/bin/env node
/* global process, console */
// The tasks of the busiest renderer main thread in Chrome traces (BENCH_TRACE of chat-render.bench.mjs):
// how many, how many of 50 ms or more, the longest and the total, by wall time and by the thread's own CPU
// time. On a loaded machine the wall times grow with the load; the thread times much less, so they compare
// two builds measured at different loads. Usage: node bench/lib/trace-tasks.mjs <trace.json>...
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** Task statistics of the renderer main thread that ran the most; times in ms. */
export function taskStats(events) {
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  const byThread = new Map();
  for (const e of events) {
    const k = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'RunTask' || names.get(k) !== 'CrRendererMain') continue;
    if (!byThread.has(k)) byThread.set(k, []);
    byThread.get(k).push(e);
  }
  let tasks = [];
  let busiest = 0;
  for (const list of byThread.values()) {
    const wall = list.reduce((s, e) => s + e.dur, 0);
    if (wall > busiest) [busiest, tasks] = [wall, list];
  }
  const ms = (us) => us / 1000;
  const wall = tasks.map((e) => ms(e.dur));
  const cpu = tasks.map((e) => ms(e.tdur ?? e.dur));
  const sum = (a) => a.reduce((s, x) => s + x, 0);
  return {
    tasks: tasks.length,
    longWall: wall.filter((x) => x >= 50).length,
    longestWall: Math.max(0, ...wall),
    totalWall: sum(wall),
    longCpu: cpu.filter((x) => x >= 50).length,
    longestCpu: Math.max(0, ...cpu),
    totalCpu: sum(cpu),
  };
}

if (process.argv[1] && basename(process.argv[1]) === 'trace-tasks.mjs') {
  const f = (x) => x.toFixed(0);
  console.log('| trace | tasks | ≥ 50 ms (wall) | longest (wall) | total (wall) | ≥ 50 ms (thread CPU) | longest (thread CPU) | total (thread CPU) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const file of process.argv.slice(2)) {
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    const s = taskStats(Array.isArray(raw) ? raw : raw.traceEvents);
    console.log(`| ${basename(file)} | ${s.tasks} | ${s.longWall} | ${f(s.longestWall)} ms | ${f(s.totalWall)} ms | ${s.longCpu} | ${f(s.longestCpu)} ms | ${f(s.totalCpu)} ms |`);
  }
}
