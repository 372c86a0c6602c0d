// Starts test/fixtures/remote/acp-server.mjs (the SDK's experimental server hosting one of our stdio
// agents on 127.0.0.1) as a child process, for unit tests and benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';

export const serverScript = path.resolve(__dirname, '../../../../../test/fixtures/remote/acp-server.mjs');

export interface AcpTestServer {
  port: number;
  /** http://127.0.0.1:port/acp */
  http: string;
  /** ws://127.0.0.1:port/acp */
  ws: string;
  process: ChildProcess;
  /** Kills the server at once (SIGKILL), as a crash would; resolves when it is gone. */
  kill(): Promise<void>;
  /** Destroys every open connection; the server and its agent stay up. */
  drop(): Promise<void>;
}

export async function startAcpServer(options: string[] = [], agentArgs: string[] = []): Promise<AcpTestServer> {
  const child = spawn(process.execPath, [serverScript, ...options, ...(agentArgs.length ? ['--', ...agentArgs] : [])], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the ACP test server exited with ${code} before listening`)));
  });
  const base = `127.0.0.1:${port}/acp`;
  return {
    port,
    http: `http://${base}`,
    ws: `ws://${base}`,
    process: child,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
    drop: async () => {
      const response = await fetch(`http://127.0.0.1:${port}/_control/drop`, { method: 'POST' });
      await response.text();
    },
  };
}
