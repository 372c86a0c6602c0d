// Finding the real agents the extension started, so a host run can check it leaves nothing behind.
import { isProcessAlive, listDescendants } from '../../../src/agents';
import { commandLine } from '../../fixtures/realAgents/processes';

/** Pids of the extension host's descendants whose command line mentions one of `needles` (Linux: /proc). */
export async function processesRunning(needles: readonly string[]): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await listDescendants(process.pid)) {
    const cmdline = commandLine(entry.pid); // '' once exited meanwhile
    if (cmdline && needles.some((n) => cmdline.includes(n)) && isProcessAlive(entry.pid)) found.push(entry.pid);
  }
  return found;
}
