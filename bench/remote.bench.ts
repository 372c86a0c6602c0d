// Remote transport benchmark: the streaming rate of one turn (`flood N`: N agent_message_chunk updates
// from the fake agent) through AcpClientConnection over
//   1. stdio (the agent as our child process, NDJSON),
//   2. WebSocket (the SDK's experimental server on 127.0.0.1 hosting the same agent; our `ws` client),
//   3. Streamable HTTP (the same server; the SDK's experimental HTTP client),
// interleaved in one run (rounds rotate the order). Rate = updates / wall time from sending the prompt
// to its end_turn; client CPU = process.cpuUsage() of this process over the same span (the server and
// the agent run in other processes). The remote rows pay a real extra hop: agent -> server (NDJSON over
// a pipe) -> socket -> us, as a deployed agent server would. Writes its section of bench/RESULTS.md
// between the "remote" markers.
// Run: npm run bench -- remote   (or: node --expose-gc out/bench/remote.bench.js)
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpClientConnection, connectRemoteTransport, silentLogger } from '../src/acp';
import { startAcpServer, type AcpTestServer } from '../test/fixtures/remote/acpServer';
import { writeResultsSection } from './lib/results';
import { median } from './lib/stats';

const UPDATES = Number(process.env.ACP_BENCH_REMOTE_UPDATES ?? 20_000);
const ROUNDS = Number(process.env.ACP_BENCH_ROUNDS ?? 3);
const FAKE_AGENT = path.resolve(__dirname, '../../test/fixtures/agents/fake-agent.mjs');
const CLIENT_INFO = { clientInfo: { name: 'bench', version: '0' } };

type Pipe = 'stdio' | 'ws' | 'http';
const LABELS: Record<Pipe, string> = {
  stdio: 'stdio (child process, NDJSON)',
  ws: 'WebSocket (SDK server on 127.0.0.1, `ws` client)',
  http: 'Streamable HTTP (SDK server on 127.0.0.1, SDK HTTP client)',
};

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** One connected client ready for a turn, and how to end it. */
interface Client {
  conn: AcpClientConnection;
  sessionId: string;
  dispose(): Promise<void>;
}

async function openStdio(): Promise<Client> {
  const child = spawn(process.execPath, [FAKE_AGENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = AcpClientConnection.forChildProcess(child);
  await conn.initialize(CLIENT_INFO);
  const { sessionId } = await conn.newSession({ cwd: os.tmpdir() });
  return {
    conn,
    sessionId,
    dispose: async () => {
      conn.close();
      if (child.exitCode === null) await new Promise<void>((resolve) => (child.kill(), child.once('exit', () => resolve())));
    },
  };
}

async function openRemote(url: string): Promise<Client> {
  const transport = await connectRemoteTransport({ url, headers: {}, logger: silentLogger });
  const conn = new AcpClientConnection(transport.input, transport.output, { framing: 'message' });
  await conn.initialize(CLIENT_INFO);
  const { sessionId } = await conn.newSession({ cwd: os.tmpdir() });
  return { conn, sessionId, dispose: () => (conn.close(), transport.close()) };
}

async function turn(client: Client): Promise<Sample> {
  let n = 0;
  const sub = client.conn.onSessionUpdate(() => n++);
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await client.conn.prompt(client.sessionId, [{ type: 'text', text: `flood ${UPDATES}` }]);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  sub.dispose();
  if (result.stopReason !== 'end_turn' || n !== UPDATES) throw new Error(`got ${n} updates, ${result.stopReason}`);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const server: AcpTestServer = await startAcpServer();
  const open: Record<Pipe, () => Promise<Client>> = { stdio: openStdio, ws: () => openRemote(server.ws), http: () => openRemote(server.http) };
  const order: Pipe[] = ['stdio', 'ws', 'http'];
  const samples: Record<Pipe, Sample[]> = { stdio: [], ws: [], http: [] };
  try {
    // Warm-up (JIT, server start-up) with a short turn each.
    for (const p of order) {
      const c = await open[p]();
      await c.conn.prompt(c.sessionId, [{ type: 'text', text: 'flood 2000' }]);
      await c.dispose();
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < order.length; i++) {
        const p = order[(i + round) % order.length];
        const client = await open[p]();
        try {
          const s = await turn(client);
          samples[p].push(s);
          console.log(`round ${round + 1} ${p.padEnd(5)} wall ${s.wallMs.toFixed(0)} ms (${((UPDATES / s.wallMs) * 1000).toFixed(0)} updates/s), client cpu ${s.cpuMs.toFixed(0)} ms`);
        } finally {
          await client.dispose();
        }
      }
    }
  } finally {
    await server.kill();
  }
  const rate = (p: Pipe) => (UPDATES / median(samples[p].map((s) => s.wallMs))) * 1000;
  const cpu = (p: Pipe) => median(samples[p].map((s) => s.cpuMs));
  const rows = order.map(
    (p) =>
      `| ${LABELS[p]} | ${median(samples[p].map((s) => s.wallMs)).toFixed(0)} | ${rate(p).toFixed(0)} | ${(rate(p) / rate('stdio')).toFixed(2)}x | ${cpu(p).toFixed(0)} | ${((cpu(p) / UPDATES) * 1000).toFixed(1)} |`,
  );
  const section = [
    '## Remote agents: streaming rate over WebSocket and Streamable HTTP vs stdio',
    '',
    `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end (other jobs share the machine: compare rows of one run); ${new Date().toISOString().slice(0, 10)}. \`npm run bench -- remote\`.`,
    `One turn of the fake agent's \`flood ${UPDATES}\` (${UPDATES.toLocaleString('en')} \`agent_message_chunk\` updates, then end_turn) through \`AcpClientConnection\`, a fresh connection and session per turn, ${ROUNDS} interleaved rounds, medians. Wall = prompt sent → end_turn received; client CPU = this process only (the server and the agent are other processes). The remote rows include the server hop (agent → SDK server over a pipe → socket → client), as a deployed agent server has.`,
    '',
    '| transport | wall ms | updates/s | rate vs stdio | client CPU ms | client CPU µs/update |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  console.log(`\n${section}`);
  writeResultsSection('remote', section);
}


main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
