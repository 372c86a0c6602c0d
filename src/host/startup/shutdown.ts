// The extension host is going away (window closed or reloaded): give the agents a graceful stop, then
// make sure nothing of theirs outlives the host.
import { killAllAgentTreesNow } from '../../agents/liveAgents';

/**
 * VS Code awaits deactivate for about 4 s before it ends the extension host; the graceful stop (save
 * transcripts, close stdin, SIGTERM) gets most of that, and whatever is still running after it
 * (a detached daemon that ignores SIGTERM, as Cline's hub daemon does) is SIGKILLed synchronously.
 */
const GRACEFUL_SHUTDOWN_MS = 2500;

export async function shutDownAgents(gracefulStop: (() => Promise<void>) | undefined, budgetMs = GRACEFUL_SHUTDOWN_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    await Promise.race([gracefulStop?.().catch(() => undefined), budget]);
  } finally {
    clearTimeout(timer);
    killAllAgentTreesNow();
  }
}
