// Shared test helpers: spawn a scripted fake agent (or the SDK peer) and connect to it,
// capturing logs and every message the client sends (for schema validation).
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { AcpClientConnection, type AcpClientOptions, type TraceEvent } from '../../../src/acp';
import type { Logger } from '../../../src/acp/logger';

const ROOT = path.resolve(__dirname, '../../../..');
export const FAKE_AGENT = path.join(ROOT, 'test/fixtures/agents/fake-agent.mjs');
export const SDK_PEER = path.join(ROOT, 'test/fixtures/sdk-peer/sdk-agent.mjs');

export interface CapturingLogger extends Logger {
  lines: string[];
}

export function capturingLogger(): CapturingLogger {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
    debug: (m) => lines.push(`debug ${m}`),
  };
}

export interface Harness {
  child: ChildProcess;
  conn: AcpClientConnection;
  logger: CapturingLogger;
  trace: TraceEvent[];
  sent: TraceEvent[];
  stderr: () => string;
  dispose(): Promise<void>;
}

export function startAgent(script: string, args: string[] = [], options: Partial<AcpClientOptions> = {}, env: NodeJS.ProcessEnv = {}): Harness {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const logger = capturingLogger();
  const trace: TraceEvent[] = [];
  const conn = AcpClientConnection.forChildProcess(child, {
    logger,
    trace: (e) => trace.push(e),
    ...options,
  });
  return {
    child,
    conn,
    logger,
    trace,
    get sent() {
      return trace.filter((e) => e.direction === 'send');
    },
    stderr: () => stderr,
    async dispose() {
      conn.close();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
  };
}

export const fakeAgent = (args: string[] = [], options: Partial<AcpClientOptions> = {}) => startAgent(FAKE_AGENT, args, options);

export const CLIENT_INFO = { name: 'switchboard-tests', version: '0.0.0' };

export function text(t: string) {
  return { type: 'text' as const, text: t };
}

/** Drop item ids and turn ends: what must match between a live turn and its replay. */
export function agentContent<T extends { items: Array<{ id: string; kind: string }> }>(t: T) {
  return { ...t, items: t.items.filter((i) => i.kind !== 'turn_end').map(({ id: _id, ...rest }) => rest) };
}
