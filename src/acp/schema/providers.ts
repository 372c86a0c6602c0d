// Unstable `providers/*` (schema.unstable.json): which LLM endpoints the agent routes its model calls to.
// `providers` must be an array (anything else is not an answer to providers/list); an entry without a
// usable providerId is skipped and counted, so one bad entry does not hide the others.
import * as z from '../../shared/zod';
import { lenientArray } from './lenient';

/** Well-known: anthropic, openai, azure, vertex, bedrock. Any other string is a custom protocol and is kept. */
export type LlmProtocol = string;

export interface ProviderCurrentConfig {
  apiType: LlmProtocol;
  baseUrl: string;
}

export interface ProviderInfo {
  providerId: string;
  /** Protocols the agent accepts for this provider (entries that are not strings are dropped). */
  supported: LlmProtocol[];
  /** The agent says it cannot be disabled: the client must never call providers/disable for it. */
  required: boolean;
  /** null: disabled (the schema: "null or omitted means the provider is disabled"). */
  current: ProviderCurrentConfig | null;
}

const CurrentSchema = z.object({ apiType: z.string(), baseUrl: z.string() });

const ProviderInfoSchema = z.object({
  providerId: z.string().check(z.minLength(1)),
  supported: lenientArray(z.string()),
  // Missing or not a boolean: treated as required, so a client never disables what it must not.
  required: z.catch(z.boolean(), true),
  current: z.pipe(z.optional(z.union([CurrentSchema, z.null()])), z.transform((c) => c ?? null)),
});

export const ListProvidersResultSchema = z.pipe(
  z.object({ providers: z.array(z.unknown()) }),
  z.transform((r) => {
    const providers: ProviderInfo[] = [];
    let skipped = 0;
    for (const entry of r.providers) {
      const parsed = ProviderInfoSchema.safeParse(entry);
      if (parsed.success) providers.push(parsed.data);
      else skipped++;
    }
    return { providers, skipped };
  }),
);

export interface ListProvidersResult {
  providers: ProviderInfo[];
  /** Entries the agent sent that could not be read (no providerId, a malformed `current`). */
  skipped: number;
}

/** `providers/set`: replaces the whole configuration of one provider. `headers` may carry credentials. */
export interface SetProviderParams {
  providerId: string;
  apiType: LlmProtocol;
  baseUrl: string;
  headers?: Record<string, string>;
}
