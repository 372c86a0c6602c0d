/*
 * Every agent process whose tree may still hold processes, kept in a module of its own so deactivate can
 * reach them without loading the process code at activation. The last resort when the host exits before
 * a graceful stop finished: one set per extension host, like the processes it tracks.
 */

export interface KillableTree {
  /** Synchronously SIGKILLs whatever is left of the agent's process tree. */
  killTreeNow(): void;
}

const live = new Set<KillableTree>();
let exitHookInstalled = false;

/** Tracks `agent` until `forgetAgent`; the first one installs the host-exit hook. */
export function trackAgent(agent: KillableTree): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // No asynchronous cleanup runs after 'exit': this one is synchronous.
    process.once('exit', killAllAgentTreesNow);
  }
  live.add(agent);
}

export function forgetAgent(agent: KillableTree): void {
  live.delete(agent);
}

/**
 * Synchronously SIGKILLs what is left of every tracked agent: for deactivate, once the graceful stops
 * had their time, and for the host's own exit.
 */
export function killAllAgentTreesNow(): void {
  for (const agent of [...live]) agent.killTreeNow();
}
