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

/**
 * Reads a stream line by line without losing lines that arrive in the same chunk: `next()` returns
 * the next line matching `predicate` (skipping others), rejecting after `timeoutMs`.
 */
export class LineReader {
  private buffer = '';
  private readonly lines: string[] = [];
  private wake: (() => void) | undefined;

  constructor(stream: Readable) {
    stream.on('data', (chunk: Buffer | string) => {
      this.buffer += chunk.toString();
      let newline = this.buffer.indexOf('\n');
      while (newline >= 0) {
        this.lines.push(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
        newline = this.buffer.indexOf('\n');
      }
      this.wake?.();
    });
  }

  async next(predicate: (line: string) => boolean = () => true, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.lines.length > 0) {
        const line = this.lines.shift() as string;
        if (predicate(line)) return line;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no matching line within ${timeoutMs} ms (partial line: ${JSON.stringify(this.buffer)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}

/** The next matching line of a stream that is read only once. */
export function nextLine(stream: Readable, predicate: (line: string) => boolean = () => true, timeoutMs = 20_000): Promise<string> {
  return new LineReader(stream).next(predicate, timeoutMs);
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
