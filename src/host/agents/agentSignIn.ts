// Sign-in per agent: the methods an agent offered when it answered -32000 (shown in the chat until the
// user signs in), running the chosen method, and retrying the one request that needed it.
import { AuthRequiredError } from '../../acp';
import type { AgentSecrets } from '../auth/agentSecrets';
import { runAuthFlow, SignInFailedError, windowAuthUi, type AuthUi } from '../auth/authFlow';
import { classifyAuthMethods, type AuthFlow } from '../auth/authMethods';
import type { AcpClientConnection } from '../../acp';
import type { ResolvedAgentDefinition } from '../../agents';

/** What signing in needs of an agent's runtime (AgentRuntime has it). */
export interface SignInRuntime {
  readonly name: string;
  readonly definition: ResolvedAgentDefinition;
  start(): Promise<AcpClientConnection>;
  setAuthRequired(): void;
  markReady(): void;
}

/** The request that stopped for sign-in; `sessionKey` when it was a prompt in that session. */
export interface RetryAfterSignIn {
  run(): Promise<void>;
  sessionKey?: string;
  /** What the retry does, for the banner: "opens the session", "sends your message". */
  what: string;
}

export interface AgentSignInOptions {
  secrets: AgentSecrets;
  info(message: string): void;
  /** An agent's sign-in state changed (its methods appeared or went away). */
  agentsChanged(): void;
}

export class AgentSignIn {
  private readonly flows = new Map<string, AuthFlow[]>();
  private readonly retries = new Map<string, RetryAfterSignIn>();
  /** Why the last sign-in attempt failed, shown in the agent's sign-in banner until the next attempt. */
  private readonly failures = new Map<string, string>();
  /** Sign-in prompts (replaceable in tests). */
  ui: AuthUi = windowAuthUi;

  constructor(private readonly o: AgentSignInOptions) {}

  /** The methods the agent offered, while it waits for sign-in. */
  flowsOf(agentId: string): AuthFlow[] | undefined {
    return this.flows.get(agentId);
  }

  /** What signing in to the agent will retry, while it waits for sign-in. */
  retryOf(agentId: string): string | undefined {
    return this.flows.has(agentId) ? this.retries.get(agentId)?.what : undefined;
  }

  /** Why the last sign-in to the agent failed, while it still waits for sign-in. */
  failureOf(agentId: string): string | undefined {
    return this.flows.has(agentId) ? this.failures.get(agentId) : undefined;
  }

  /**
   * Runs an agent request; on -32000 keeps the agent's sign-in methods (and `retry`) and rethrows.
   * After the user signs in, `authenticate()` runs `retry`.
   */
  async run<T>(runtime: SignInRuntime | undefined, agentId: string, request: () => Promise<T>, retry?: RetryAfterSignIn): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof AuthRequiredError)) throw error;
      if (retry) this.retries.set(agentId, retry);
      const flows = classifyAuthMethods(error.authMethods);
      this.flows.set(agentId, flows);
      runtime?.setAuthRequired();
      this.o.agentsChanged();
      this.o.info(`${agentId} requires sign-in: ${flows.map((f) => `${f.name} (${f.type})`).join(', ') || 'no methods advertised'}`);
      if (flows.length === 0) {
        throw new Error(`${agentId} requires sign-in but advertises no sign-in method. Sign in with its own tool, then restart it. (${error.message})`, {
          cause: error,
        });
      }
      throw error;
    }
  }

  /** A newer prompt in `sessionKey` replaces one waiting there for sign-in: only the latest is sent. */
  dropRetry(agentId: string, sessionKey: string): void {
    if (this.retries.get(agentId)?.sessionKey === sessionKey) this.retries.delete(agentId);
  }

  /**
   * Runs the sign-in method `methodId` of the agent; when it succeeded, retries the request that needed
   * it. `restart` restarts the agent (env_var methods restart it with the new value).
   */
  async authenticate(runtime: SignInRuntime, methodId: string, env: { cwd: string; restart(): Promise<void> }): Promise<void> {
    const agentId = runtime.name;
    const flow = this.flows.get(agentId)?.find((f) => f.id === methodId);
    if (!flow) throw new Error(`${agentId} did not offer the sign-in method "${methodId}".`);
    const definition = runtime.definition;
    this.failures.delete(agentId);
    let outcome: 'done' | 'cancelled';
    try {
      outcome = await runAuthFlow(
        flow,
        {
          agentName: agentId,
          command: definition.command,
          args: definition.args,
          env: definition.env,
          cwd: env.cwd,
          authenticate: async (id, meta) => (await runtime.start()).authenticate(id, undefined, meta),
          restart: env.restart,
        },
        this.o.secrets,
        this.ui,
      );
    } catch (error) {
      // Shown in the sign-in banner, where the user chose the method; the methods stay offered.
      const message = error instanceof SignInFailedError ? error.message : `Sign-in with "${flow.name}" failed: ${error instanceof Error ? error.message : String(error)}`;
      this.failures.set(agentId, message);
      this.o.info(`Sign-in to ${agentId} with "${flow.name}" (${flow.type}) failed: ${message}`);
      this.o.agentsChanged();
      return;
    }
    this.o.info(`Sign-in to ${agentId} with "${flow.name}" (${flow.type}): ${outcome}`);
    if (outcome === 'cancelled') return;
    this.flows.delete(agentId);
    runtime.markReady();
    this.o.agentsChanged();
    const retry = this.retries.get(agentId);
    this.retries.delete(agentId);
    if (retry) await retry.run();
  }
}
