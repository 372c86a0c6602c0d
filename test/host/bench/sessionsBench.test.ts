// Not a test: the extension host with many long sessions, measured when SWITCHBOARD_SESSIONS_BENCH names a JSON
// file for the results (skipped otherwise; nothing here asserts numbers). Opens SESSIONS sessions of MESSAGES
// agent messages each (bench/lib/transcript-agent.mjs `messages <n>`, one turn), records the heap before and
// after, then closes them (they are kept in the local store) and reopens them from the store the way a window
// reload restores its tabs, timing the first (active) one and all of them.
//   node bench/sessions-host.bench.mjs   (runs this through scripts/run-host-tests.mjs)
import * as fs from 'fs';
import * as path from 'path';
import { performance } from 'node:perf_hooks';
import { repoRoot, setSettings, waitFor } from '../index';
import { api, prompt } from '../integration/helpers';

const OUT = process.env.SWITCHBOARD_SESSIONS_BENCH;
const SESSIONS = Number(process.env.SWITCHBOARD_SESSIONS_BENCH_SESSIONS ?? 20);
const MESSAGES = Number(process.env.SWITCHBOARD_SESSIONS_BENCH_MESSAGES ?? 2000);
const AGENT = 'Sessions Bench';
const MB = 1024 * 1024;

/** Heap in use once the garbage collector had a chance to run (no --expose-gc in the extension host). */
async function settledHeap(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    samples.push(process.memoryUsage().heapUsed);
  }
  return Math.min(...samples);
}

describe('sessions bench (extension host heap and reopening)', function () {
  this.timeout(30 * 60_000);
  let restore: (() => Promise<void>) | undefined;

  before(async function () {
    if (!OUT) this.skip();
    restore = await setSettings({ 'switchboard.agents': { [AGENT]: { command: 'node', args: [path.join(repoRoot, 'bench', 'lib', 'transcript-agent.mjs')] } } });
  });
  after(async () => {
    await restore?.();
  });

  it('measures', async () => {
    const sb = await api();
    await waitFor(() => sb.backend.agents.views().some((a) => a.id === AGENT), 'the bench agent');
    const heapBefore = await settledHeap();
    const ids: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < SESSIONS; i++) {
      const id = await sb.backend.lifecycle.open(AGENT);
      await sb.backend.sessions.require(id).prompt(prompt(`messages ${MESSAGES}`));
      await waitFor(() => sb.backend.sessions.snapshots().find((s) => s.view.sessionId === id)?.view.turn === 'idle', 'the turn to end', 120_000);
      await sb.backend.lifecycle.rename(id, `bench session ${i}`);
      ids.push(id);
    }
    const openMs = performance.now() - t0;
    const items = sb.backend.sessions.snapshots().filter((s) => ids.includes(s.view.sessionId)).reduce((n, s) => n + s.transcript.items.length, 0);
    const heapOpen = await settledHeap();

    for (const id of ids) await sb.backend.lifecycle.close(id);
    const heapClosed = await settledHeap();
    const entries = sb.backend.history.list().filter((h) => h.source === 'local' && /^bench session \d+$/.test(h.title ?? ''));
    const reopen: number[] = [];
    const r0 = performance.now();
    for (const entry of entries.slice(0, SESSIONS)) {
      await sb.backend.lifecycle.openHistory(entry.id, 'load');
      reopen.push(performance.now() - r0);
    }
    const heapReopened = await settledHeap();
    for (const s of sb.backend.sessions.snapshots()) await sb.backend.lifecycle.close(s.view.sessionId);

    const result = {
      sessions: SESSIONS,
      messages: MESSAGES,
      items,
      openMs,
      heapBeforeMB: heapBefore / MB,
      heapOpenMB: heapOpen / MB,
      heapClosedMB: heapClosed / MB,
      heapReopenedMB: heapReopened / MB,
      firstReopenMs: reopen[0],
      allReopenMs: reopen.at(-1),
      reopened: reopen.length,
    };
    fs.writeFileSync(OUT!, JSON.stringify(result, null, 1));
    console.log(JSON.stringify(result));
  });
});
