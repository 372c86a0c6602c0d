/*
 * The protocol trace shows every JSON-RPC message, and some carry secrets: MCP server env and
 * headers in session/new and session/load, terminal env, authenticate payloads, API keys in
 * _meta. These pure functions return a redacted deep copy for logging; the original is untouched.
 */

export const REDACTED = '«redacted»';

/** Keys whose string values are secrets wherever they appear. */
const SECRET_KEY = /key|token|secret|password|passwd|authorization|credential|cookie/i;
/** Keys whose value is a set of environment variables or HTTP headers: all values are hidden. */
const VARIABLE_SET_KEY = /^(env|headers)$/i;
/** Secrets that show up inside ordinary strings (e.g. an echoed command line). */
const INLINE_SECRETS: readonly RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
];

/**
 * Redacted deep copy of any JSON value:
 * - `env` / `headers` objects `{NAME: value}` and arrays `[{name, value}]` keep the names, hide values;
 * - string values under keys matching /key|token|secret|password|authorization|.../i are hidden
 *   (numbers and booleans stay: `inputTokens: 1200` is not a secret);
 * - bearer tokens and well-known API key formats inside other strings are hidden.
 */
export function redactSecrets(value: unknown): unknown {
  return redactValue(value, undefined);
}

/**
 * Redacts one JSON-RPC message for the protocol log. On top of `redactSecrets`, the params of
 * `authenticate` requests are hidden entirely except `methodId` (newer agents may accept
 * credentials there, under any name).
 */
export function redactProtocolMessage(message: unknown): unknown {
  const redacted = redactSecrets(message);
  if (isRecord(redacted) && redacted.method === 'authenticate' && isRecord(redacted.params)) {
    const params: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(redacted.params)) params[key] = key === 'methodId' ? value : REDACTED;
    return { ...redacted, params };
  }
  return redacted;
}

function redactValue(value: unknown, key: string | undefined): unknown {
  if (key !== undefined && VARIABLE_SET_KEY.test(key)) return redactVariableSet(value);
  if (typeof value === 'string') return key !== undefined && SECRET_KEY.test(key) ? REDACTED : redactInline(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined));
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const [childKey, child] of Object.entries(value)) {
      copy[childKey] = SECRET_KEY.test(childKey) && isSecretContainer(child) ? redactAll(child) : redactValue(child, childKey);
    }
    return copy;
  }
  return value;
}

/** `{NAME: value}` or ACP's `[{name, value}]`: names stay visible, values never do. */
function redactVariableSet(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => (isRecord(item) && 'value' in item ? { ...redactValue(item, undefined) as Record<string, unknown>, value: REDACTED } : redactAll(item)));
  }
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const name of Object.keys(value)) copy[name] = REDACTED;
    return copy;
  }
  return value === undefined || value === null ? value : REDACTED;
}

/** Under a secret-looking key, an object or array (e.g. `credentials: {...}`) is hidden leaf by leaf. */
function redactAll(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactAll);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, redactAll(child)]));
  return typeof value === 'string' ? REDACTED : value;
}

function isSecretContainer(value: unknown): boolean {
  return Array.isArray(value) || isRecord(value);
}

function redactInline(text: string): string {
  let result = text;
  for (const pattern of INLINE_SECRETS) {
    result = result.replace(pattern, (match) => {
      const scheme = /^(Bearer|Basic)\s+/.exec(match);
      return scheme ? `${scheme[0]}${REDACTED}` : REDACTED;
    });
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
