import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Readable } from 'stream';
import type { AgentLogger } from '../../../src/agents/logger';

/** Compiled fixture scripts live next to the compiled tests: out/test/fixtures/process. */
export function fixture(name: string): string {
  return path.resolve(__dirname, '../../fixtures/process', name);
}

export class RecordingLogger implements AgentLogger {
  readonly lines: { level: 'info' | 'warn' | 'error'; message: string }[] = [];
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  messages(level?: 'info' | 'warn' | 'error'): string[] {
    return this.lines.filter((line) => level === undefined || line.level === level).map((line) => line.message);
  }
}

/** Resolves with the next line matching `predicate` on a stream (rejects after `timeoutMs`). */
export function nextLine(stream: Readable, predicate: (line: string) => boolean = () => true, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer | string) => {
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (predicate(line)) {
          cleanup();
          resolve(line);
          return;
        }
        newline = buffer.indexOf('\n');
      }
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no matching line within ${timeoutMs} ms (buffer: ${JSON.stringify(buffer)})`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      stream.off('data', onData);
    };
    stream.on('data', onData);
  });
}

/**
 * The test's own liveness check, independent of the code under test: `process.kill(pid, 0)`, and
 * on Linux a zombie (exited, waiting for its reaper) counts as gone.
 */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-${prefix}-`));
}

export function writeExecutable(file: string, content: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return file;
}

/** Best-effort cleanup of processes a failed test may have left. */
export function killQuietly(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
