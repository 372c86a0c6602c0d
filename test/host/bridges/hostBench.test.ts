// Not a test: the extension-host half of bench/bridges.bench.ts. It runs only when the bench sets
// SWITCHBOARD_BRIDGES_BENCH (a JSON path for the results) and skips otherwise; nothing here asserts timings.
// Measures a 100-line window of an open 10 MB TextDocument, and a 100 MB producer through TerminalBridge
// with a real pseudoterminal, sampling the extension host's memory.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { FsBridge } from '../../../src/host/fs/fsBridge';
import { TerminalBridge } from '../../../src/host/terminal/terminalBridge';
import { sliceLines } from '../../../src/host/fs/textFileWindow';
import { WriteHistory } from '../../../src/host/fs/writeHistory';
import { median } from '../../../bench/lib/stats';
import { makeSandbox, type Sandbox } from './helpers';

const OUT = process.env.SWITCHBOARD_BRIDGES_BENCH;
const MB = 1024 * 1024;
const S = 'sess-1';

async function timeIt(runs: number, f: () => unknown): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await f();
    t.push(performance.now() - s);
  }
  return median(t);
}

describe('bridges host bench', function () {
  this.timeout(10 * 60_000);
  let box: Sandbox;
  const results: Record<string, unknown> = {};

  before(function () {
    if (!OUT) this.skip();
    box = makeSandbox();
  });
  after(() => {
    if (!OUT) return;
    fs.writeFileSync(OUT, JSON.stringify({ vscode: vscode.version, ...results }, null, 2));
    box.dispose();
  });

  it('window of an open 10 MB document', async () => {
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 10 * MB; i++) {
      const l = `export const value${i} = ${JSON.stringify('x'.repeat(i % 60))}; // ü ${i}\n`;
      lines.push(l);
      size += Buffer.byteLength(l);
    }
    const file = path.join(box.root, 'doc-10mb.ts');
    fs.writeFileSync(file, lines.join(''));
    const bridge = new FsBridge({ confinement: box.confinement, sensitive: box.sensitive, history: new WriteHistory() });
    const diskMs = await timeIt(9, () => bridge.readTextFile({ sessionId: S, path: file, line: lines.length / 2, limit: 100 }, box.context));
    let t = performance.now();
    const doc = await vscode.workspace.openTextDocument(file);
    const openMs = performance.now() - t;
    const rows: Record<string, number> = {};
    for (const [label, line] of [
      ['start', 1],
      ['middle', Math.floor(lines.length / 2)],
      ['end', lines.length - 100],
    ] as const) {
      rows[label] = await timeIt(9, () => bridge.readTextFile({ sessionId: S, path: file, line, limit: 100 }, box.context));
    }
    t = performance.now();
    sliceLines(doc.getText(), { line: lines.length / 2, limit: 100 });
    const wholeMs = performance.now() - t;
    results.read = { bytes: size, lines: lines.length, openMs, windowMs: rows, wholeGetTextMs: wholeMs, diskWindowMiddleMs: diskMs };
    bridge.dispose();
  });

  it('100 MB producer through a terminal with a real pseudoterminal', async () => {
    const bridge = new TerminalBridge({ confinement: box.confinement });
    const script = `const line = '\\x1b[32mINFO\\x1b[0m build step ' + 'x'.repeat(40) + ' 😀 done\\n';
      const chunk = Buffer.from(line.repeat(Math.ceil(65536 / line.length)));
      let left = ${100 * MB};
      (function w() { while (left > 0) { left -= chunk.length; if (!process.stdout.write(chunk)) return process.stdout.once('drain', w); } })();`;
    global.gc?.();
    const base = process.memoryUsage();
    const peak = { rss: base.rss, heapUsed: base.heapUsed, arrayBuffers: base.arrayBuffers };
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
    }, 50);
    const t = performance.now();
    const { terminalId } = await bridge.create({ sessionId: S, command: process.execPath, args: ['-e', script] }, { roots: box.context.roots, name: 'bench 100 MB', show: true });
    const status = await bridge.waitForExit({ sessionId: S, terminalId });
    const seconds = (performance.now() - t) / 1000;
    clearInterval(timer);
    const out = bridge.output({ sessionId: S, terminalId });
    results.terminal = {
      seconds,
      mbPerSecond: 100 / seconds,
      exitCode: status.exitCode,
      retainedBytes: Buffer.byteLength(out.output),
      truncated: out.truncated,
      baseRssMb: base.rss / MB,
      peakGrowthMb: {
        rss: (peak.rss - base.rss) / MB,
        heapUsed: (peak.heapUsed - base.heapUsed) / MB,
        arrayBuffers: (peak.arrayBuffers - base.arrayBuffers) / MB,
      },
    };
    bridge.dispose();
  });
});
