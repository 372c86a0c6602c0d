// Protocol engine benchmark: the same stream of >=200,000 session/update lines through
//   1. split + JSON.parse, nothing else (the floor),
//   2. the SDK 2.4 `client()` over `ndJsonStream` (what an SDK-based client pays),
//   3. our AcpClientConnection: decode + lean dispatch + zod validation + TranscriptState,
// interleaved in one run (rounds rotate the order), each fed from a pull-based Readable of
// 64 KiB chunks. Reports CPU time (process.cpuUsage: the whole process, GC helper threads included), the
// main thread's own CPU time (the metric the design's 0.5x target is set on; Linux only) and wall time, ratios vs the floor and
// the SDK, and peak heap above a post-GC baseline, sampled during the run and at quarters of
// the stream (flat = no growth beyond the transcript itself). Writes its section of
// bench/RESULTS.md between the "protocol" markers.
// Run: npm run bench -- protocol   (or: node --expose-gc out/bench/protocol.bench.js)
// ACP_BENCH_PIPELINES=floor,ours runs only those (a quick check; RESULTS.md is then left alone).
import * as fs from 'node:fs';
import * as os from 'node:os';
import { Readable, Writable } from 'node:stream';
import { AcpClientConnection, TranscriptState } from '../src/acp';
import { generateUpdateStream } from './protocol.stream';
import { writeResultsSection } from './lib/results';
import { median } from './lib/stats';

const LINES = Number(process.env.ACP_BENCH_LINES ?? 200_000);
const ROUNDS = Number(process.env.ACP_BENCH_ROUNDS ?? 5);
const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

type Pipeline = 'floor' | 'sdk' | 'ours';

interface Sample {
  cpuMs: number;
  mainCpuMs: number;
  wallMs: number;
  peakHeapMB: number;
  quarterHeapMB: number[];
}

function source(data: Buffer): Readable {
  let at = 0;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (at >= data.length) {
        this.push(null);
        return;
      }
      this.push(data.subarray(at, at + CHUNK));
      at += CHUNK;
    },
  });
}

/**
 * CPU time of the main thread alone, in ms: the first field of /proc/self/task/<pid>/schedstat is the
 * nanoseconds the thread ran (the main thread's id is the process id). NaN where there is no procfs.
 */
function mainThreadCpuMs(): number {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

const sink = () => new Writable({ write: (_c, _e, cb) => cb() });

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function measure(run: (progress: (n: number) => void) => Promise<void>): Promise<Sample> {
  gc();
  const baseHeap = process.memoryUsage().heapUsed;
  let peak = baseHeap;
  const quarters: number[] = [];
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const progress = (n: number) => {
    if (n % (LINES / 4) === 0) {
      const heap = process.memoryUsage().heapUsed;
      peak = Math.max(peak, heap);
      quarters.push((heap - baseHeap) / MB);
    }
  };
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuMs();
  const start = performance.now();
  await run(progress);
  const wallMs = performance.now() - start;
  const mainCpuMs = mainThreadCpuMs() - mainCpu;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  return { cpuMs: (used.user + used.system) / 1000, mainCpuMs, wallMs, peakHeapMB: (peak - baseHeap) / MB, quarterHeapMB: quarters };
}

async function runFloor(data: Buffer, progress: (n: number) => void): Promise<void> {
  let rest = '';
  let n = 0;
  for await (const chunk of source(data)) {
    const text = rest + (chunk as Buffer).toString('utf8');
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (line.length === 0) continue;
      JSON.parse(line);
      progress(++n);
    }
  }
  if (n !== LINES) throw new Error(`floor parsed ${n}`);
}

async function runSdk(data: Buffer, progress: (n: number) => void): Promise<void> {
  // The SDK package is ESM; Node 20.20 can require() it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@agentclientprotocol/sdk') as typeof import('@agentclientprotocol/sdk');
  let n = 0;
  await new Promise<void>((resolve, reject) => {
    const app = sdk.client({ name: 'bench' }).onNotification('session/update', () => {
      progress(++n);
      if (n === LINES) resolve();
    });
    const stream = sdk.ndJsonStream(Writable.toWeb(sink()) as WritableStream<Uint8Array>, Readable.toWeb(source(data)) as ReadableStream<Uint8Array>);
    const connection = app.connect(stream);
    connection.closed.then(() => (n === LINES ? resolve() : reject(new Error(`sdk delivered ${n}`))), reject);
  });
}

async function runOurs(data: Buffer, progress: (n: number) => void): Promise<void> {
  let n = 0;
  const state = new TranscriptState('bench-session');
  await new Promise<void>((resolve, reject) => {
    const conn = new AcpClientConnection(source(data), sink());
    conn.onSessionUpdate((notification) => {
      state.apply(notification.update);
      progress(++n);
      if (n === LINES) resolve();
    });
    void conn.closed.then(() => (n === LINES ? resolve() : reject(new Error(`ours delivered ${n}`))));
  });
  if (state.transcript.items.length === 0) throw new Error('no transcript');
}

const RUNNERS: Record<Pipeline, (data: Buffer, progress: (n: number) => void) => Promise<void>> = { floor: runFloor, sdk: runSdk, ours: runOurs };
const LABELS: Record<Pipeline, string> = {
  floor: 'split + `JSON.parse` (floor)',
  sdk: '`@agentclientprotocol/sdk` 2.4 `client()` + `ndJsonStream`',
  ours: 'Switchboard: decode + lean dispatch + zod + `TranscriptState`',
};

async function main(): Promise<void> {
  const { data } = generateUpdateStream(LINES);
  console.log(`stream: ${LINES.toLocaleString('en')} session/update lines, ${(data.length / MB).toFixed(1)} MiB; ${ROUNDS} interleaved rounds`);
  const samples: Record<Pipeline, Sample[]> = { floor: [], sdk: [], ours: [] };
  const all: Pipeline[] = ['floor', 'sdk', 'ours'];
  const only = process.env.ACP_BENCH_PIPELINES?.split(',');
  const order = only ? all.filter((p) => p === 'floor' || only.includes(p)) : all;
  // Warm-up (JIT) on a slice, then rotate the order each round.
  const warm = generateUpdateStream(20_000).data;
  for (const p of order) await RUNNERS[p](warm, () => undefined).catch(() => undefined);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < order.length; i++) {
      const p = order[(i + round) % order.length];
      const s = await measure((progress) => RUNNERS[p](data, progress));
      samples[p].push(s);
      console.log(`round ${round + 1} ${p.padEnd(5)} cpu ${s.cpuMs.toFixed(0)} ms, main thread ${s.mainCpuMs.toFixed(0)} ms, wall ${s.wallMs.toFixed(0)} ms, peak heap +${s.peakHeapMB.toFixed(1)} MB, heap at quarters ${s.quarterHeapMB.map((q) => q.toFixed(0)).join('/')} MB`);
    }
  }
  const med = (p: Pipeline, k: 'cpuMs' | 'mainCpuMs' | 'wallMs' | 'peakHeapMB') => median(samples[p].map((s) => s[k]));
  const speed = (p: Pipeline, k: 'cpuMs' | 'mainCpuMs' | 'wallMs') => med('floor', k) / med(p, k);
  if (order.length < all.length) {
    for (const p of order) {
      console.log(`${p}: median cpu ${med(p, 'cpuMs').toFixed(0)} ms, ${speed(p, 'cpuMs').toFixed(2)}x floor; main thread ${med(p, 'mainCpuMs').toFixed(0)} ms, ${speed(p, 'mainCpuMs').toFixed(2)}x floor`);
    }
    return;
  }
  const rows = order.map((p) => {
    const q = samples[p][samples[p].length - 1].quarterHeapMB.map((x) => x.toFixed(0)).join(' / ');
    return `| ${LABELS[p]} | ${med(p, 'mainCpuMs').toFixed(0)} | ${speed(p, 'mainCpuMs').toFixed(2)}x | ${med(p, 'cpuMs').toFixed(0)} | ${speed(p, 'cpuMs').toFixed(2)}x | ${med(p, 'wallMs').toFixed(0)} | ${speed(p, 'wallMs').toFixed(2)}x | ${med(p, 'peakHeapMB').toFixed(1)} | ${q} |`;
  });
  const vsSdkCpu = med('sdk', 'cpuMs') / med('ours', 'cpuMs');
  const met = (ratio: number) => (ratio >= 0.55 ? 'meets 0.5x and 0.55x' : ratio >= 0.5 ? 'meets 0.5x, misses 0.55x' : 'misses 0.5x');
  const vsSdkWall = med('sdk', 'wallMs') / med('ours', 'wallMs');
  const section = [
    '## Protocol engine',
    '',
    `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end (other jobs share the machine: compare rows of one run); ${new Date().toISOString().slice(0, 10)}.`,
    `Stream: ${LINES.toLocaleString('en')} \`session/update\` lines, ${(data.length / MB).toFixed(1)} MiB (thought and message chunks with messageIds, tool calls, tool call updates with diffs and terminal content), fed in 64 KiB chunks from a pull-based Readable; ${ROUNDS} interleaved rounds, medians. Main-thread CPU = the main thread's own run time (\`/proc/self/task/<pid>/schedstat\`), the metric the design's target is set on; process CPU = \`process.cpuUsage()\` (user+system of every thread, so it includes V8's parallel and concurrent GC helpers); peak heap = max \`heapUsed\` above a post-GC baseline, sampled every 5 ms; quarters = heap growth at 25/50/75/100 % of the stream (last round).`,
    '',
    '| pipeline | main-thread CPU ms | speed vs floor (main-thread CPU) | process CPU ms | speed vs floor (process CPU) | wall ms | speed vs floor (wall) | peak heap MB | heap at quarters MB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Switchboard vs the SDK client: **${vsSdkCpu.toFixed(2)}x** (process CPU), **${vsSdkWall.toFixed(2)}x** (wall). Targets: >= 0.5x the floor in main-thread CPU (the design's target), >= 0.55x (issue 13: no regression from the 0.55x read before the redesign), >= 3x the SDK, peak heap <= 60 MB.`,
    `Met in this run: main-thread CPU ${speed('ours', 'mainCpuMs').toFixed(2)}x the floor (${met(speed('ours', 'mainCpuMs'))}); process CPU ${speed('ours', 'cpuMs').toFixed(2)}x (${met(speed('ours', 'cpuMs'))}); vs SDK ${vsSdkCpu >= 3 ? 'yes (>= 3x)' : 'NO'}; peak heap ${med('ours', 'peakHeapMB') <= 60 ? 'yes' : 'NO'}.`,
    'Where the time goes (CPU profile and --trace-gc): decoding + JSON.parse cost about the floor; session/update parsing and the reducer\'s own JavaScript ~0.15x of it; the rest is garbage collection of the retained transcript (~25-35 MB: each scavenge copies what the transcript keeps, and the major GCs mark it). The GC threads are why process CPU reads lower than main-thread CPU: V8 scavenges in parallel and marks concurrently on the second core. Without the reducer the pipeline runs at 0.7-0.77x. Runs of the same code swing by about 0.05x on this 2-core machine.',
    'The Switchboard row includes building the transcript (the merged message and thought text is retained: that is the data, not a leak).',
    '',
  ].join('\n');
  console.log(`\n${section}`);
  writeResultsSection('protocol', section);
}


main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
