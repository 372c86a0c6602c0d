// An in-memory agent end for transport-level tests: raw bytes in, parsed messages out.
import { PassThrough } from 'node:stream';
import { AcpClientConnection, type AcpClientOptions } from '../../../src/acp';
import { capturingLogger, type CapturingLogger } from './helpers';

export interface MemoryPeer {
  conn: AcpClientConnection;
  logger: CapturingLogger;
  /** Bytes the agent writes to the client. */
  write(data: string | Buffer): void;
  send(message: Record<string, unknown>): void;
  /** Messages the client wrote, parsed. */
  received: Array<Record<string, unknown>>;
  nextReceived(predicate: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  agentStdout: PassThrough;
}

export function memoryPeer(options: Partial<AcpClientOptions> = {}): MemoryPeer {
  const agentStdout = new PassThrough();
  const agentStdin = new PassThrough();
  const logger = capturingLogger();
  const conn = new AcpClientConnection(agentStdout, agentStdin, { logger, ...options });
  const received: Array<Record<string, unknown>> = [];
  const waiters: Array<{ predicate: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }> = [];
  let buffered = '';
  agentStdin.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      received.push(message);
      for (const w of [...waiters]) {
        if (w.predicate(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
      }
    }
  });
  return {
    conn,
    logger,
    agentStdout,
    received,
    write: (data) => agentStdout.write(data),
    send: (message) => agentStdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    nextReceived: (predicate) => {
      const existing = received.find(predicate);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

export const INIT_RESULT = {
  protocolVersion: 1,
  agentCapabilities: { loadSession: true, promptCapabilities: { image: true }, sessionCapabilities: { list: {} } },
  authMethods: [],
};

/** Answer the client's initialize (id 0) so requests that need capabilities work. */
export async function initialized(peer: MemoryPeer): Promise<void> {
  const init = peer.conn.initialize({ clientInfo: { name: 't', version: '0' } });
  const request = await peer.nextReceived((m) => m.method === 'initialize');
  peer.send({ id: request.id, result: INIT_RESULT });
  await init;
}
