// The unstable subagents `subagent_update` (a child session the parent announces and describes). Patch
// semantics: an omitted field leaves the stored value, `null` clears it. Each field follows the schema's
// `x-deserialize-default-on-error`: a malformed one is ignored on its own (treated as omitted), the rest of
// the update still applies.
import * as z from '../../shared/zod';
import type { SubagentWorkState } from '../../shared/transcript';
import { TurnUsageSchema } from './agentResponses';
import { isRecord } from './lenient';

export interface SubagentUpdate {
  sessionUpdate: 'subagent_update';
  /** The child's session id. */
  sessionId: string;
  title?: string | null;
  description?: string | null;
  cwd?: string | null;
  additionalDirectories?: string[] | null;
  /** What the client may do to the child: `cancel` its current work. */
  capabilities?: { cancel: boolean } | null;
  state?: SubagentWorkState | null;
}

/** A field that is a string, null, or (malformed or omitted) undefined. */
function text(value: unknown): string | null | undefined {
  return typeof value === 'string' || value === null ? value : undefined;
}

function directories(value: unknown): string[] | null | undefined {
  if (value === null) return null;
  if (!Array.isArray(value)) return undefined;
  return value.filter((d): d is string => typeof d === 'string');
}

function capabilities(value: unknown): { cancel: boolean } | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  // An object (even `{}`) grants cancel; omitted, null or malformed does not.
  return { cancel: isRecord(value.cancel) };
}

function workState(value: unknown): SubagentWorkState | null | undefined {
  if (value === null) return null;
  if (!isRecord(value) || typeof value.state !== 'string') return undefined;
  const state: SubagentWorkState = { state: value.state };
  if (value.state !== 'idle') return state;
  if (typeof value.stopReason === 'string') state.stopReason = value.stopReason;
  if (state.stopReason === 'error' && isRecord(value.error) && typeof value.error.message === 'string') state.error = value.error.message;
  const usage = TurnUsageSchema.safeParse(value.usage);
  if (usage.success && usage.data) state.usage = usage.data;
  return state;
}

/** Only `sessionId` is required; every other field is read on its own. */
export const SubagentUpdateSchema = z.pipe(
  z.looseObject({ sessionUpdate: z.literal('subagent_update'), sessionId: z.string() }),
  z.transform((raw): SubagentUpdate => {
    const update: SubagentUpdate = { sessionUpdate: 'subagent_update', sessionId: raw.sessionId };
    const fields = {
      title: text(raw.title),
      description: text(raw.description),
      cwd: text(raw.cwd),
      additionalDirectories: directories(raw.additionalDirectories),
      capabilities: capabilities(raw.capabilities),
      state: workState(raw.state),
    };
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) Object.assign(update, { [key]: value });
    return update;
  }),
);
