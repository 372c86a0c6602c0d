// Finding and stopping the real agents the extension started, so a host run leaves nothing behind.
import * as fs from 'fs';
import type { SwitchboardApi } from '../../../src/extension';
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

/**
 * Closes the agent's sessions and stops its process the way the extension does (stdin EOF, then the
 * whole tree). The backend has no public per-agent stop (restartAgent would start it again), so this
 * reaches its runtime by name; tsc checks the member still exists.
 */
export async function stopAgent(sb: SwitchboardApi, agentId: string): Promise<void> {
  for (const s of sb.backend.sessions.snapshots()) if (s.view.agentId === agentId) await sb.backend.lifecycle.close(s.view.sessionId);
  await sb.backend.agents.running(agentId)?.stop();
}
