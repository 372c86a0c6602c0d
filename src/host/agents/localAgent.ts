// How a local agent (a `command` entry) starts and ends: its process spawned with the login shell's PATH
// and the sign-in secrets, its stderr in the agent's channel, its ACP connection over stdio; an exit nobody
// asked for is a crash with the last stderr lines, and too many crashes stop automatic restarts (RestartCap).
// Loaded with the process code (agentProcess.ts, resolveCommand.ts) when the first local agent starts
// (agentRuntime.ts), not with the services.
import type * as vscode from 'vscode';
import { errorMessage, type AcpClientConnection } from '../../acp';
import { describeAgentExit, startAgentProcess, type AgentExit, type AgentProcess, type LoginShellEnvironmentCache } from '../../agents';
import type { AgentLaunch, AgentLink } from './agentLaunch';
import type { RestartCap } from './restartCap';

export interface LocalAgentOptions {
  cwd: string;
  /** The agent's stderr channel. */
  stderrLog: vscode.LogOutputChannel;
  shellEnvironment: LoginShellEnvironmentCache;
  /** Secrets collected for `env_var` sign-in, applied last to the agent's environment. */
  getSecretEnv(): Promise<Record<string, string>>;
}

/** A local agent gets longer than a remote one to answer initialize: it may be installing. */
const LOCAL_INITIALIZE_TIMEOUT_MS = 120_000;

/** Spawns the agent, connects over its stdin and stdout, initializes. */
export async function launchLocalAgent(run: AgentLaunch, o: LocalAgentOptions, restarts: RestartCap): Promise<AcpClientConnection> {
  const { definition } = run;
  run.setStatus('starting', `starting ${definition.command}…`);
  let proc: AgentProcess;
  try {
    const [shellEnv, secretEnv] = await Promise.all([o.shellEnvironment.get(), o.getSecretEnv()]);
    proc = await startAgentProcess({
      definition,
      cwd: o.cwd,
      loginShellPath: shellEnv.env.PATH,
      secretEnv,
      installHint: definition.installHint,
      logger: {
        info: (m) => o.stderrLog.info(m),
        warn: (m) => o.stderrLog.warn(m),
        error: (m) => o.stderrLog.error(m),
      },
    });
  } catch (error) {
    run.check();
    run.failed(error);
    throw error;
  }
  const link: AgentLink = { close: () => proc.stop() };
  if (!run.own(link)) {
    await proc.stop();
    run.check();
  }
  run.log.info(`Started ${definition.name}: ${proc.commandLine} (pid ${proc.pid})`);
  const connection = run.connect((Connection, options) => Connection.forChildProcess(proc, options));
  run.hold(proc.onDidExit((exit) => onExit(run, link, restarts, exit)));
  try {
    await run.initialize(connection, { terminalAuth: true, timeoutMs: LOCAL_INITIALIZE_TIMEOUT_MS });
  } catch (error) {
    run.check();
    // The process may still run (e.g. it answered another protocol version): stop it.
    const tail = proc.stderrTail();
    await run.shutdown();
    run.crashed({ message: `${definition.name} could not be initialised: ${errorMessage(error)}`, stderrTail: tail });
    throw error;
  }
  run.check();
  run.ready(connection);
  return connection;
}

/** The process ended: a crash (counted against the cap) unless a stop or restart asked for it. */
function onExit(run: AgentLaunch, link: AgentLink, restarts: RestartCap, exit: AgentExit): void {
  if (!run.release(link)) return;
  const { name } = run.definition;
  const crashed = !exit.requested;
  if (crashed) {
    const decision = restarts.recordCrash(name);
    const description = describeAgentExit(exit);
    run.log.error(`${name} ${description}`);
    run.crashed({
      message: decision.allowed ? `${name} ${description}.` : `${name} ${description}. ${decision.reason}`,
      exitCode: exit.code,
      signal: exit.signal,
      stderrTail: [...exit.stderrTail],
    });
  } else {
    run.setStatus('stopped');
  }
  run.exited({ exit, crashed });
}
