// The ACP test server (test/fixtures/remote/acp-server.mjs: the SDK's experimental server hosting our
// fake agent on 127.0.0.1) as a child of the extension host.
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';
import * as readline from 'readline';
import { repoRoot } from '../index';

const script = path.join(repoRoot, 'test', 'fixtures', 'remote', 'acp-server.mjs');

export interface RemoteServer {
  port: number;
  http: string;
  ws: string;
  /** SIGKILL, as a crash: resolves once it is gone. */
  kill(): Promise<void>;
  /** Destroys every open connection; the server and its agent stay up. */
  drop(): Promise<void>;
}

export async function startServer(options: string[] = []): Promise<RemoteServer> {
  const child: ChildProcess = spawn('node', [script, ...options], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the ACP test server exited with ${code}`)));
  });
  return {
    port,
    http: `http://127.0.0.1:${port}/acp`,
    ws: `ws://127.0.0.1:${port}/acp`,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await gone;
    },
    drop: async () => void (await (await fetch(`http://127.0.0.1:${port}/_control/drop`, { method: 'POST' })).text()),
  };
}
