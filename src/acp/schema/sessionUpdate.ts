// `session/update`: every stable variant plus the unstable ones agents already send.
// Parsing never fails: an unknown variant, or a known one too broken to use, becomes an
// `unsupported` update carrying the raw JSON, and the reducer shows it as such.
import * as z from '../../shared/zod';
import type { PlanEntry, AvailableCommand, TranscriptContent } from '../../shared/transcript';
import { ContentBlockSchema, ToolCallContentSchema, ToolLocationSchema } from './content';
import { lenientArray, nullable, optional, optionalLenientArray, isRecord } from './lenient';
import { fastParseSessionUpdate } from './fastPath';
import { ConfigOptionsSchema } from './sessionSetup';
import { SubagentUpdateSchema } from './subagents';
import type { SessionRoute } from '../connection/subagentRoutes';

const ContentChunk = {
  content: ContentBlockSchema,
  messageId: optional(z.string()),
};

const PlanEntrySchema = z.object({
  content: z.string(),
  priority: z.catch(z.string(), 'medium'),
  status: z.catch(z.string(), 'pending'),
}) as z.ZodMiniType<PlanEntry>;

const AvailableCommandSchema = z.pipe(
  z.object({
    name: z.string(),
    description: z.catch(z.string(), ''),
    input: optional(z.object({ hint: z.string() })),
  }),
  z.transform((c): AvailableCommand => (c.input ? { name: c.name, description: c.description, inputHint: c.input.hint } : { name: c.name, description: c.description })),
);

const toolCallFields = {
  toolCallId: z.string(),
  // The agent's programmatic tool name (stable ToolCall.name), shown where the title alone is ambiguous.
  name: optional(z.string()),
  kind: optional(z.string()),
  status: optional(z.string()),
  content: optional(z.array(ToolCallContentSchema)),
  locations: optionalLenientArray(ToolLocationSchema),
  rawInput: z.optional(z.unknown()),
  rawOutput: z.optional(z.unknown()),
  // Zed's terminal_info / terminal_output / terminal_exit ride here (read by the reducer).
  _meta: z.optional(z.unknown()),
};

const PlanUpdateContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('items'), planId: z.string(), entries: lenientArray(PlanEntrySchema) }),
  z.object({ type: z.literal('file'), planId: z.string(), uri: z.string() }),
  z.object({ type: z.literal('markdown'), planId: z.string(), content: z.string() }),
]);

const KnownSessionUpdate = z.discriminatedUnion('sessionUpdate', [
  z.object({ sessionUpdate: z.literal('user_message_chunk'), ...ContentChunk }),
  z.object({ sessionUpdate: z.literal('agent_message_chunk'), ...ContentChunk }),
  z.object({ sessionUpdate: z.literal('agent_thought_chunk'), ...ContentChunk }),
  z.object({ sessionUpdate: z.literal('tool_call'), ...toolCallFields, title: z.catch(z.string(), '') }),
  z.object({ sessionUpdate: z.literal('tool_call_update'), ...toolCallFields, title: optional(z.string()) }),
  z.object({ sessionUpdate: z.literal('plan'), entries: lenientArray(PlanEntrySchema) }),
  z.object({ sessionUpdate: z.literal('plan_update'), plan: PlanUpdateContent }),
  z.object({ sessionUpdate: z.literal('plan_removed'), planId: z.string() }),
  z.object({ sessionUpdate: z.literal('available_commands_update'), availableCommands: lenientArray(AvailableCommandSchema) }),
  z.object({ sessionUpdate: z.literal('current_mode_update'), currentModeId: z.string() }),
  z.object({ sessionUpdate: z.literal('config_option_update'), configOptions: ConfigOptionsSchema }),
  z.object({ sessionUpdate: z.literal('session_info_update'), title: nullable(z.string()), updatedAt: nullable(z.string()) }),
  z.object({
    sessionUpdate: z.literal('usage_update'),
    used: z.number(),
    size: z.number(),
    cost: optional(z.object({ amount: z.number(), currency: z.string() })),
    // Vendor extras: rate-limit windows (rateLimits.ts).
    _meta: z.optional(z.unknown()),
  }),
  z.object({
    sessionUpdate: z.literal('notice'),
    severity: z.catch(z.string(), 'info'),
    title: z.string(),
    description: optional(z.string()),
  }),
  z.object({
    sessionUpdate: z.literal('compaction_update'),
    compactionId: z.string(),
    status: z.string(),
    // Patch semantics: omitted leaves the stored value, null (or summary: []) clears it.
    summary: nullable(z.array(ContentBlockSchema)),
    error: nullable(z.string()),
  }),
  z.object({ sessionUpdate: z.literal('compaction_summary_chunk'), compactionId: z.string(), content: ContentBlockSchema }),
  SubagentUpdateSchema,
  // Unstable inter-session messages: upserts by messageId (null clears a field, omitted keeps it).
  z.object({
    sessionUpdate: z.literal('session_message'),
    messageId: z.string(),
    senderSessionId: nullable(z.string()),
    recipientSessionId: nullable(z.string()),
    content: nullable(lenientArray(ContentBlockSchema)),
  }),
  z.object({ sessionUpdate: z.literal('session_message_chunk'), messageId: z.string(), content: ContentBlockSchema }),
]);

export type KnownSessionUpdate = z.output<typeof KnownSessionUpdate>;

/** What the client could not understand, kept whole. */
export interface UnsupportedSessionUpdate {
  sessionUpdate: '$unsupported';
  /** The `sessionUpdate` tag the agent sent (or '(missing)'). */
  updateType: string;
  raw: unknown;
  /** Why it was not understood: unknown variant, or the validation issues. */
  reason: string;
}

export type SessionUpdate = KnownSessionUpdate | UnsupportedSessionUpdate;

export const KNOWN_SESSION_UPDATES: ReadonlySet<string> = new Set(
  KnownSessionUpdate.def.options.map((o) => ('shape' in o ? o.shape : o.def.in.shape).sessionUpdate.def.values[0]),
);

export function parseSessionUpdate(raw: unknown): SessionUpdate {
  return (isRecord(raw) && fastParseSessionUpdate(raw)) || parseSessionUpdateWithZod(raw);
}

/** The reference parse (the fast path must agree with it); exported for tests. */
export function parseSessionUpdateWithZod(raw: unknown): SessionUpdate {
  const parsed = KnownSessionUpdate.safeParse(raw);
  if (parsed.success) return parsed.data;
  const tag = isRecord(raw) && typeof raw.sessionUpdate === 'string' ? raw.sessionUpdate : '(missing)';
  return {
    sessionUpdate: '$unsupported',
    updateType: tag,
    raw,
    reason: KNOWN_SESSION_UPDATES.has(tag) ? summarizeIssues(parsed.error.issues) : `unknown session update "${tag}"`,
  };
}

/** A `session/update` notification: whose session, and what happened. */
export interface SessionNotification {
  sessionId: string;
  update: SessionUpdate;
  /** Whose session it is: the client's own, a child announced below one (subagents), or a stranger. */
  route?: SessionRoute;
}

/** Returns undefined when the envelope itself is unusable (no session to attribute it to). */
export function parseSessionNotification(params: unknown): SessionNotification | undefined {
  if (!isRecord(params) || typeof params.sessionId !== 'string' || !isRecord(params.update)) return undefined;
  return { sessionId: params.sessionId, update: parseSessionUpdate(params.update) };
}

export function summarizeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

export type { TranscriptContent };
