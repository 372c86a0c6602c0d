// The user's Model provider choice for one agent provider, checked before anything reaches the agent: an
// http(s) base URL without credentials in it, and headers (all of them kept as secrets) never over plain
// http to another machine (the rule remote agents follow: assertCredentialsAllowed). Pure: no VS Code.
import * as z from '../../../shared/zod';
import { assertCredentialsAllowed, errorMessage, parseRemoteUrl } from '../../../acp';
import type { ProviderHeaderInput } from '../../../shared/chatState';

/** Switchboard refused the choice itself; nothing was sent to the agent. */
export class ProviderChoiceError extends Error {}

/** What Switchboard keeps per provider (in SecretStorage: headers are credentials) and applies at each start. */
const SavedChoiceSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('set'),
    apiType: z.string().check(z.minLength(1)),
    baseUrl: z.string().check(z.minLength(1)),
    headers: z.record(z.string(), z.string()),
  }),
  z.object({ kind: z.literal('disabled') }),
]);
export type SavedChoice = z.infer<typeof SavedChoiceSchema>;
export type SavedChoices = Record<string, SavedChoice>;

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The base URL as sent (trimmed), after the checks; `headerNames`: the headers that go with it. */
export function checkProviderUrl(baseUrl: string, headerNames: readonly string[]): string {
  const text = baseUrl.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProviderChoiceError(`"${text}" is not a valid URL: enter an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderChoiceError(`The base URL must be http:// or https://, not ${url.protocol}//.`);
  if (url.username || url.password) throw new ProviderChoiceError('The base URL contains a user name or password; put credentials in a header instead.');
  try {
    assertCredentialsAllowed(parseRemoteUrl(text), headerNames);
  } catch (error) {
    throw new ProviderChoiceError(errorMessage(error), { cause: error });
  }
  return text;
}

/**
 * The headers to send: each entered name with its entered value, or (value left out) the value kept for
 * it from the last choice. Names are checked; a header named twice (in any case) is refused.
 */
export function resolveHeaders(entered: readonly ProviderHeaderInput[], kept: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { name: raw, value } of entered) {
    const name = raw.trim();
    if (!name && !value) continue;
    if (!HEADER_NAME.test(name)) throw new ProviderChoiceError(`"${name}" is not a valid header name.`);
    if (seen.has(name.toLowerCase())) throw new ProviderChoiceError(`The header "${name}" is given twice.`);
    seen.add(name.toLowerCase());
    const keptValue = Object.entries(kept).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    const resolved = value ?? keptValue;
    if (resolved === undefined || resolved === '') throw new ProviderChoiceError(`Enter a value for the header "${name}".`);
    if (/[\r\n\0]/.test(resolved)) throw new ProviderChoiceError(`The value of the header "${name}" contains a line break.`);
    headers[name] = resolved;
  }
  return headers;
}

/** Reads what was kept; entries that are not a choice (a hand-edited or older store) are dropped. */
export function parseSavedChoices(json: string | undefined): SavedChoices {
  if (!json) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  const choices: SavedChoices = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return choices;
  for (const [providerId, value] of Object.entries(raw)) {
    const parsed = SavedChoiceSchema.safeParse(value);
    if (parsed.success) choices[providerId] = parsed.data;
  }
  return choices;
}

/** For logs and notices: no query string or fragment (either may carry a token). */
export function describeBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return baseUrl;
  }
}
