// Starts a real agent through Switchboard's own layers (src/agents process, src/acp connection) signed out
// and offline (the recipe's env), and stops it with its whole process tree.
import { AcpClientConnection } from '../../src/acp';
import { isProcessAlive, listDescendants, startAgentProcess, type AgentProcess } from '../../src/agents';
import { waitForProcessesToExit } from '../../src/agents/processTree';
import { agentCommand, credentialFreeEnv, type RealAgentRecipe } from '../fixtures/realAgents/recipe';
import { REAL_AGENT_TIMEOUT_MS } from './expected';
import { makeTempDir, removeDir, signedOutEnv } from './realAgentSetup';

export interface RunningAgent {
  readonly process: AgentProcess;
  readonly connection: AcpClientConnection;
  /** The empty HOME the agent runs with (plus the recipe's config files). */
  readonly home: string;
  /** The session's cwd (an empty project folder). */
  readonly cwd: string;
}

export async function startRealAgent(recipe: RealAgentRecipe): Promise<RunningAgent> {
  const home = makeTempDir('switchboard-real-home-');
  const cwd = makeTempDir('switchboard-real-project-');
  const { command, args } = agentCommand(recipe.id);
  const proc = await startAgentProcess({
    definition: { name: recipe.label, command, args, env: signedOutEnv(recipe, home, cwd) },
    cwd,
    baseEnv: credentialFreeEnv(),
    stderrLineLimit: 200,
  });
  const connection = AcpClientConnection.forChildProcess(proc);
  return { process: proc, connection, home, cwd };
}

/** Resolves with the call's result; on failure adds the agent's last stderr lines to the message. */
export async function withStderr<T>(agent: RunningAgent, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof Error) error.message += `\n--- last stderr lines of the agent ---\n${agent.process.stderrTail().slice(-30).join('\n')}`;
    throw error;
  }
}

export function initialize(agent: RunningAgent): ReturnType<AcpClientConnection['initialize']> {
  // terminalAuth: true, as the extension initializes (src/host/agents/agentRuntime.ts).
  const call = agent.connection.initialize({ clientInfo: { name: 'switchboard-tests', version: '0.0.0' }, terminalAuth: true }, { timeoutMs: REAL_AGENT_TIMEOUT_MS });
  return withStderr(agent, call);
}

/**
 * Stops the agent (stdin EOF, SIGTERM, SIGKILL, for the whole tree) and returns the pids of its tree
 * (taken just before stopping) that are still alive afterwards: [] when nothing was left behind.
 */
export async function stopRealAgent(agent: RunningAgent): Promise<{ tree: number[]; survivors: number[] }> {
  const tree = agent.process.running ? [agent.process.pid, ...(await listDescendants(agent.process.pid)).map((p) => p.pid)] : [];
  await agent.process.stop();
  agent.connection.close();
  // stop() already waited for the leftovers; this only absorbs a slow reaper on a loaded machine.
  await waitForProcessesToExit(tree, 5000);
  removeDir(agent.home);
  removeDir(agent.cwd);
  return { tree, survivors: tree.filter((pid) => isProcessAlive(pid)) };
}
