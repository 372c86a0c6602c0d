// Binding an open session again after an agent restart or a dropped connection: session/resume (nothing
// replayed) against session/load (the agent replays the whole session; the client receives, validates and
// throws the replay away, since the transcript is already here). On a session of 500 messages (250 turns of
// a ~2 KB answer each) with the fake agent as a real child process over stdio, alternating rounds, the
// median of each. Writes its section of bench/RESULTS.md between the "rebind" markers.
// Run: npm run bench -- rebind
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpClientConnection } from '../src/acp';
import { writeResultsSection } from './lib/results';
import { median } from './lib/stats';

const TURNS = Number(process.env.REBIND_BENCH_TURNS ?? 250);
const ROUNDS = Number(process.env.REBIND_BENCH_ROUNDS ?? 9);
const FAKE_AGENT = path.resolve(__dirname, '../../test/fixtures/agents/fake-agent.mjs');
const silent = { debug() {}, info() {}, warn() {}, error() {} };

async function main(): Promise<void> {
  const child = spawn(process.execPath, [FAKE_AGENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = AcpClientConnection.forChildProcess(child, { logger: silent });
  let replayed = 0;
  let replayBytes = 0;
  conn.onSessionUpdate((n) => {
    replayed++;
    replayBytes += JSON.stringify(n.update).length;
  });
  await conn.initialize({ clientInfo: { name: 'switchboard-bench', version: '0' } });
  const { sessionId } = await conn.newSession({ cwd: os.tmpdir() });
  const answer = 'A paragraph of a typical answer, with `code` and a [link](https://example.com). '.repeat(26);
  for (let i = 0; i < TURNS; i++) await conn.prompt(sessionId, [{ type: 'text', text: `${i}: ${answer}` }]);

  const load: number[] = [];
  const resume: number[] = [];
  let updatesPerLoad = 0;
  let bytesPerLoad = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['load', 'resume'] as const) : (['resume', 'load'] as const);
    for (const method of order) {
      replayed = 0;
      replayBytes = 0;
      const t0 = performance.now();
      if (method === 'load') await conn.loadSession(sessionId, { cwd: os.tmpdir() });
      else await conn.resumeSession(sessionId, { cwd: os.tmpdir() });
      const ms = performance.now() - t0;
      (method === 'load' ? load : resume).push(ms);
      if (method === 'load') {
        updatesPerLoad = replayed;
        bytesPerLoad = replayBytes;
      }
    }
  }
  conn.close();
  child.kill();

  const l = median(load);
  const r = median(resume);
  const report = [
    '## Rebinding a session: session/resume vs session/load',
    '',
    `Session of ${TURNS * 2} messages (${TURNS} turns, answers of ~2 KB), fake agent over stdio; median of ${ROUNDS} alternating rounds; load ${os.loadavg()[0].toFixed(1)} (1-min) at the end.`,
    '',
    '| bind with | median | what crosses the wire |',
    '|---|---|---|',
    `| session/load | ${l.toFixed(1)} ms | ${updatesPerLoad} replayed updates, ${(bytesPerLoad / 1024).toFixed(0)} KB of update JSON, parsed and discarded |`,
    `| session/resume | ${r.toFixed(1)} ms | one response |`,
    '',
    `Resume saves ${(l - r).toFixed(1)} ms per bind (${(l / Math.max(r, 0.001)).toFixed(0)}x) on the client and the pipe alone; an agent that reads its own store to replay (Claude's session files) adds its own read time to load.`,
  ].join('\n');
  console.log(report);
  writeResultsSection('rebind', report);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
