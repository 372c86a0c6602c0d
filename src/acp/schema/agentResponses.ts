// Results the agent sends back to our requests. Essentials are strict (a session without
// an id is useless); everything else is lenient with the schema's defaults.
import * as z from '../../shared/zod';
import type { TurnUsage } from '../../shared/transcript';
import { isRecord, lenientArray, optional } from './lenient';
import { SessionSetupFields } from './sessionSetup';
import { advertisesSteering } from './steering';

const AuthMethodSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: optional(z.string()),
  /** 'agent' (default), 'terminal', 'env_var', or something newer: kept as sent. */
  type: z.pipe(z.optional(z.catch(z.string(), 'agent')), z.transform((t) => t ?? 'agent')),
  args: optional(z.array(z.string())),
  env: optional(z.record(z.string(), z.string())),
  vars: z.optional(z.unknown()),
  _meta: optional(z.record(z.string(), z.unknown())),
});
export type AuthMethod = z.output<typeof AuthMethodSchema>;
export const AuthMethodsSchema = lenientArray(AuthMethodSchema);

const flag = z.catch(z.boolean(), false);
// Capability objects: present (an object) means supported.
const present = z.pipe(z.optional(z.unknown()), z.transform((v) => isRecord(v)));

const AgentCapabilitiesSchema = optional(
  z.object({
    loadSession: flag,
    promptCapabilities: optional(z.object({ image: flag, audio: flag, embeddedContext: flag })),
    mcpCapabilities: optional(z.object({ http: flag, sse: flag })),
    sessionCapabilities: optional(
      z.object({ list: present, delete: present, additionalDirectories: present, resume: present, close: present, fork: present, title: present, systemPrompt: present }),
    ),
    auth: optional(z.object({ logout: present, status: present })),
    providers: present,
  }),
);

export const InitializeResultSchema = z.pipe(
  z.object({
    protocolVersion: z.int(),
    agentCapabilities: z.pipe(AgentCapabilitiesSchema, z.transform((c) => normaliseCapabilities(c))),
    authMethods: z.pipe(optional(AuthMethodsSchema), z.transform((m) => m ?? [])),
    agentInfo: optional(z.object({ name: z.string(), version: z.catch(z.string(), ''), title: optional(z.string()) })),
    _meta: z.optional(z.unknown()),
  }),
  // Steering is announced beside the capabilities, in the result's own `_meta`; read into them here.
  z.transform(({ _meta, ...result }) => ({ ...result, agentCapabilities: { ...result.agentCapabilities, steering: advertisesSteering(_meta) } })),
);

/** Capabilities after defaults: every flag is a boolean, absent means unsupported. */
export interface AgentCapabilities {
  loadSession: boolean;
  promptCapabilities: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcpCapabilities: { http: boolean; sse: boolean };
  /** `systemPrompt`: the agent takes client instructions (unstable; `append` mode, which every such agent supports). */
  sessionCapabilities: { list: boolean; delete: boolean; additionalDirectories: boolean; resume: boolean; close: boolean; fork: boolean; title: boolean; systemPrompt: boolean };
  auth: { logout: boolean; status: boolean };
  /** Unstable providers/list, set and disable. */
  providers: boolean;
  /** `_session/steering` (the initialize result's `_meta.steering.supported`). */
  steering: boolean;
}

const NoCapabilities: AgentCapabilities = {
  loadSession: false,
  promptCapabilities: { image: false, audio: false, embeddedContext: false },
  mcpCapabilities: { http: false, sse: false },
  sessionCapabilities: { list: false, delete: false, additionalDirectories: false, resume: false, close: false, fork: false, title: false, systemPrompt: false },
  auth: { logout: false, status: false },
  providers: false,
  steering: false,
};

function normaliseCapabilities(parsed: Partial<Omit<AgentCapabilities, 'steering'>> = {}): Omit<AgentCapabilities, 'steering'> {
  return {
    loadSession: parsed.loadSession ?? false,
    promptCapabilities: { ...NoCapabilities.promptCapabilities, ...parsed.promptCapabilities },
    mcpCapabilities: { ...NoCapabilities.mcpCapabilities, ...parsed.mcpCapabilities },
    sessionCapabilities: { ...NoCapabilities.sessionCapabilities, ...parsed.sessionCapabilities },
    auth: { ...NoCapabilities.auth, ...parsed.auth },
    providers: parsed.providers ?? false,
  };
}

export type InitializeResult = z.output<typeof InitializeResultSchema>;

export const NewSessionResultSchema = z.object({ sessionId: z.string(), ...SessionSetupFields });
export type NewSessionResult = z.output<typeof NewSessionResultSchema>;

/** Unstable `session/fork`: the new session, set up like session/new. */
export const ForkSessionResultSchema = NewSessionResultSchema;
export type ForkSessionResult = NewSessionResult;

/** Unstable `session/set_title`: the title as the agent stored it (it may trim or truncate). */
export const SetSessionTitleResultSchema = z.object({ title: z.string() });

export const LoadSessionResultSchema = z.pipe(z.nullable(z.object({ ...SessionSetupFields })), z.transform((r) => r ?? {}));
export type LoadSessionResult = z.output<typeof LoadSessionResultSchema>;
export const ResumeSessionResultSchema = LoadSessionResultSchema;
export type ResumeSessionResult = LoadSessionResult;

export const SessionInfoSchema = z.object({
  sessionId: z.string(),
  cwd: z.catch(z.string(), ''),
  additionalDirectories: optional(z.array(z.string())),
  title: optional(z.string()),
  updatedAt: optional(z.string()),
});
export type SessionInfo = z.output<typeof SessionInfoSchema>;

export const ListSessionsResultSchema = z.object({
  sessions: lenientArray(SessionInfoSchema),
  nextCursor: optional(z.string()),
});
export type ListSessionsResult = z.output<typeof ListSessionsResultSchema>;

export const SetConfigOptionResultSchema = z.object({ configOptions: z.pipe(SessionSetupFields.configOptions, z.transform((o) => o ?? [])) });
export type SetConfigOptionResult = z.output<typeof SetConfigOptionResultSchema>;

/** Stop reasons beyond the five known ones are kept as sent (StopReason allows string). */
/** Unstable `PromptResponse.usage` (Claude, Copilot, OpenCode send it): a count that is not a number is dropped, not fatal. */
const tokenCount = optional(z.int().check(z.nonnegative()));
export const TurnUsageSchema = z.pipe(
  z.object({
    inputTokens: tokenCount,
    outputTokens: tokenCount,
    totalTokens: tokenCount,
    thoughtTokens: tokenCount,
    cachedReadTokens: tokenCount,
    cachedWriteTokens: tokenCount,
  }),
  z.transform((u): TurnUsage | undefined => {
    const out: TurnUsage = {};
    for (const [key, value] of Object.entries(u)) if (value !== undefined) out[key as keyof TurnUsage] = value;
    return Object.keys(out).length > 0 ? out : undefined;
  }),
);

export const PromptResultSchema = z.object({
  stopReason: z.string(),
  usage: z.pipe(z.catch(z.nullish(TurnUsageSchema), undefined), z.transform((u) => u ?? undefined)),
});
export type PromptResult = { stopReason: string; usage?: TurnUsage } & {
  /** True when the agent never answered our cancel and the turn was ended locally. */
  cancelledLocally?: boolean;
};

/** Results that carry nothing but `_meta`: anything object-like (or null) is fine. */
export const EmptyResultSchema = z.pipe(z.unknown(), z.transform(() => ({}) as Record<string, never>));
