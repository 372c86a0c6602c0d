// An agent's crashes against its restart cap (RestartPolicy). Apart from localAgent.ts, which records the
// crashes, because every AgentRuntime holds one from its creation, while the local launch loads only when
// the first agent starts.
import { RestartPolicy, type RestartDecision } from '../../agents';

/** The crashes of one agent against its restart cap: once past it, the agent is not started until the user restarts it. */
export class RestartCap {
  private readonly policy = new RestartPolicy();
  /** Why automatic restarts stopped, once the cap was hit. */
  refused: string | undefined;

  recordCrash(name: string): RestartDecision {
    const decision = this.policy.recordCrash(name);
    if (!decision.allowed) this.refused = decision.reason;
    return decision;
  }

  /** The user asked for a restart: a fresh budget. */
  reset(): void {
    this.refused = undefined;
    this.policy.reset();
  }
}
