// Sign-in per agent: the methods an agent offered when it answered -32000 (shown in the chat until the
// user signs in), running the chosen method, and saying when it succeeded. What waited for the sign-in
// (a message, a new session) is kept by whoever asked for it: the chat's queue and session requests.
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

export interface AgentSignInOptions {
  secrets: AgentSecrets;
  info(message: string): void;
  /** An agent's sign-in state changed (its methods appeared or went away). */
  agentsChanged(): void;
  /** The user signed in to the agent: what waited for it goes now. */
  signedIn(agentId: string): void;
}

export class AgentSignIn {
  private readonly flows = new Map<string, AuthFlow[]>();
  /** What signing in to each agent will do next, for its banner ("starts the session"). */
  private readonly afterSignIn = new Map<string, string>();
  /** Why the last sign-in attempt failed, shown in the agent's sign-in banner until the next attempt. */
  private readonly failures = new Map<string, string>();
  /** Sign-in prompts (replaceable in tests). */
  ui: AuthUi = windowAuthUi;

  constructor(private readonly o: AgentSignInOptions) {}

  /** The methods the agent offered, while it waits for sign-in. */
  flowsOf(agentId: string): AuthFlow[] | undefined {
    return this.flows.get(agentId);
  }

  /** What signing in to the agent will do next, while it waits for sign-in. */
  retryOf(agentId: string): string | undefined {
    return this.flows.has(agentId) ? this.afterSignIn.get(agentId) : undefined;
  }

  /** Why the last sign-in to the agent failed, while it still waits for sign-in. */
  failureOf(agentId: string): string | undefined {
    return this.flows.has(agentId) ? this.failures.get(agentId) : undefined;
  }

  /**
   * Runs an agent request; on -32000 keeps the agent's sign-in methods (and `afterSignIn`, what the
   * caller does again once signed in, for the banner) and rethrows.
   */
  async run<T>(runtime: SignInRuntime | undefined, agentId: string, request: () => Promise<T>, afterSignIn?: string): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof AuthRequiredError)) throw error;
      if (afterSignIn) this.afterSignIn.set(agentId, afterSignIn);
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

  /**
   * Runs the sign-in method `methodId` of the agent; when it succeeded, says so (`signedIn`). `restart`
   * restarts the agent (env_var methods restart it with the new value).
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
    this.afterSignIn.delete(agentId);
    runtime.markReady();
    this.o.agentsChanged();
    this.o.signedIn(agentId);
  }
}
