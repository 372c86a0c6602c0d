// Finding the real agents the extension started, so a host run can check it leaves nothing behind.
import * as fs from 'fs';
import { isProcessAlive, listDescendants } from '../../../src/agents';

/** Pids of the extension host's descendants whose command line mentions one of `needles` (Linux: /proc). */
export async function processesRunning(needles: readonly string[]): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await listDescendants(process.pid)) {
    let cmdline = '';
    try {
      cmdline = fs.readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue; // exited meanwhile
    }
    if (needles.some((n) => cmdline.includes(n)) && isProcessAlive(entry.pid)) found.push(entry.pid);
  }
  return found;
}
