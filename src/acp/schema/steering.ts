// Steering: a message injected into the turn that is running. Claude Agent (claude-agent-acp 0.101) takes the
// extension request `_session/steering` and advertises it as `InitializeResponse._meta.steering.supported`;
// codex-acp, goose and pi ship or propose the same shape.
import * as z from '../../shared/zod';
import { isRecord } from './lenient';

export const STEERING_METHOD = '_session/steering';

/**
 * What the agent did with the message: `injected` into the running turn; `startedNewTurn` (no turn was
 * running and the agent started one with it); `promptRequired` (no turn was running and the client asked the
 * agent to leave the message to it: it is to be sent as a normal session/prompt). Anything else is invalid.
 */
export const SteerResultSchema = z.object({
  outcome: z.enum(['injected', 'startedNewTurn', 'promptRequired']),
  reason: z.optional(z.catch(z.string(), '')),
});
export type SteerResult = z.output<typeof SteerResultSchema>;
export type SteerOutcome = SteerResult['outcome'];

/** `_meta.steering.supported === true` in an initialize result's top-level `_meta`. */
export function advertisesSteering(meta: unknown): boolean {
  return isRecord(meta) && isRecord(meta.steering) && meta.steering.supported === true;
}
