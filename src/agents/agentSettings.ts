import * as z from './zod';
import { SECRET_PLACEHOLDER, type AgentConfigProblem, type AgentDefinition, type ResolvedAgentDefinition } from './agentDefinition';
import { BUILTIN_PRESETS, type AgentPreset } from './presets';

/*
 * `switchboard.agents` arrives from VS Code as unknown JSON (users edit settings.json by hand, and
 * the JSON schema in package.json only warns). Each entry is validated on its own so one typo never
 * hides the other agents, and every rejected entry yields exactly one problem that names it.
 */

const ALLOWED_KEYS = ['command', 'args', 'env', 'url', 'headers', 'defaultMode', 'defaultModel', 'defaultConfigOptions'] as const;

const REMOTE_SCHEMES = ['http:', 'https:', 'ws:', 'wss:'];
/** RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Keys people paste from Zed's settings (snake_case) or other clients, with what we call them. */
const KEY_SUGGESTIONS: Readonly<Record<string, string>> = {
  default_mode: 'defaultMode',
  default_model: 'defaultModel',
  default_config_options: 'defaultConfigOptions',
  arguments: 'args',
  argv: 'args',
  environment: 'env',
  cmd: 'command',
  path: 'command',
  URL: 'url',
  uri: 'url',
  endpoint: 'url',
  address: 'url',
  header: 'headers',
  Headers: 'headers',
};

const nonEmptyString = (what: string) =>
  z
    .string({ error: (issue) => `${what} must be a string${describeReceived(issue.input)}` })
    .check(z.refine((value) => value.trim().length > 0, { error: `${what} must not be empty` }));

/** Zod schema of one `switchboard.agents` value (the object under a display name). */
export const agentEntrySchema = z.strictObject({
  /** Required unless `url` is given (checked in parseAgentEntry, so every problem is reported at once). */
  command: z.optional(nonEmptyString('"command"')),
  url: z.optional(
    z
      .string({ error: (issue) => `"url" must be a string${describeReceived(issue.input)}` })
      .check(
        z.superRefine((value, ctx) => {
          const problem = remoteUrlProblem(value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      ),
  ),
  headers: z.optional(
    z
      .record(
        z.string(),
        z
          .string({ error: (issue) => `each value in "headers" must be a string${describeReceived(issue.input)}` })
          .check(z.refine((value) => !/[\r\n\0]/.test(value), { error: 'a header value must not contain line breaks' })),
        { error: (issue) => `"headers" must be an object of strings${describeReceived(issue.input)}` },
      )
      .check(
        z.superRefine((headers, ctx) => {
          for (const name of Object.keys(headers)) {
            if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: `${JSON.stringify(name)} is not a valid header name` });
          }
        }),
      ),
  ),
  args: z.optional(
    z.array(z.string({ error: (issue) => `each item of "args" must be a string${describeReceived(issue.input)}` }), {
      error: (issue) => `"args" must be an array of strings${describeReceived(issue.input)}`,
    }),
  ),
  env: z.optional(
    z.record(
      z.string(),
      z.string({ error: (issue) => `each value in "env" must be a string${describeReceived(issue.input)}` }),
      { error: (issue) => `"env" must be an object of strings${describeReceived(issue.input)}` },
    ),
  ),
  defaultMode: z.optional(nonEmptyString('"defaultMode"')),
  defaultModel: z.optional(nonEmptyString('"defaultModel"')),
  defaultConfigOptions: z.optional(
    z.record(
      z.string(),
      z.union([z.string(), z.boolean()], {
        error: (issue) => `each value in "defaultConfigOptions" must be a string or a boolean${describeReceived(issue.input)}`,
      }),
      { error: (issue) => `"defaultConfigOptions" must be an object${describeReceived(issue.input)}` },
    ),
  ),
});

export type AgentEntry = z.infer<typeof agentEntrySchema>;

export interface ParsedAgentSettings {
  /** Valid entries, in the order they appear in the setting. */
  readonly agents: AgentDefinition[];
  /** One per rejected entry (or one for the whole value when it is not an object). */
  readonly problems: AgentConfigProblem[];
}

/**
 * Validates the raw `switchboard.agents` value. `undefined`/`null` mean "not set" (no problems).
 * `settingName` only changes the wording of messages (e.g. when parsing workspace settings).
 */
export function parseAgentSettings(value: unknown, settingName = 'switchboard.agents'): ParsedAgentSettings {
  if (value === undefined || value === null) return { agents: [], problems: [] };
  if (!isPlainObject(value)) {
    return {
      agents: [],
      problems: [
        {
          entry: undefined,
          message: `"${settingName}" must be an object mapping agent names to {command, args, env}, but it is ${describeValue(value)}.`,
        },
      ],
    };
  }
  const agents: AgentDefinition[] = [];
  const problems: AgentConfigProblem[] = [];
  for (const [name, entry] of Object.entries(value)) {
    const result = parseAgentEntry(name, entry);
    if (result.ok) agents.push(result.definition);
    else problems.push({ entry: name, message: `Agent "${name}" in ${settingName} was ignored: ${result.reason}.` });
  }
  return { agents, problems };
}

export type AgentEntryResult = { ok: true; definition: AgentDefinition } | { ok: false; reason: string };

/** Validates one entry; `reason` lists every problem of the entry, separated by "; ". */
export function parseAgentEntry(name: string, entry: unknown): AgentEntryResult {
  if (name.trim().length === 0) return { ok: false, reason: 'the agent name is empty' };
  if (!isPlainObject(entry)) {
    return { ok: false, reason: `the entry must be an object like {"command": "...", "args": []}, but it is ${describeValue(entry)}` };
  }
  // Zed's custom agents carry "type": "custom"; accept it so entries paste across unchanged.
  const { type, ...rest } = entry;
  if (type !== undefined && type !== 'custom') {
    return { ok: false, reason: `"type" ${JSON.stringify(type)} is not supported (only "custom" entries with a "command" can be started)` };
  }
  const kindProblems = entryKindProblems(rest);
  const parsed = agentEntrySchema.safeParse(rest);
  if (!parsed.success || kindProblems.length > 0) {
    const issues = parsed.success ? '' : formatIssues(parsed.error.issues);
    return { ok: false, reason: [...kindProblems, ...(issues ? [issues] : [])].join('; ') };
  }
  return { ok: true, definition: toDefinition(name, parsed.data) };
}

/** An entry starts an agent ("command") or connects to one ("url"): exactly one, with the keys that go with it. */
function entryKindProblems(entry: Record<string, unknown>): string[] {
  const hasUrl = entry.url !== undefined;
  if (entry.command !== undefined && hasUrl) {
    return ['give either "command" (an agent Switchboard starts) or "url" (a remote agent it connects to), not both'];
  }
  if (!hasUrl) {
    const problems = entry.command === undefined ? ['"command" is missing (the executable to start, e.g. "npx" or "/usr/local/bin/my-agent")'] : [];
    if (entry.headers !== undefined) problems.push('"headers" apply to a remote agent ("url") only');
    return problems;
  }
  const local = ['args', 'env'].filter((key) => entry[key] !== undefined);
  return local.length > 0
    ? [`${local.map((key) => `"${key}"`).join(' and ')} apply to an agent Switchboard starts; a remote agent ("url") takes "headers"`]
    : [];
}

/** Why `value` cannot be a remote agent's URL, or undefined. */
function remoteUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return `"url" ${JSON.stringify(value)} is not a valid URL (e.g. "wss://agents.example.com/acp")`;
  }
  if (!REMOTE_SCHEMES.includes(url.protocol)) return `"url" must start with http://, https://, ws:// or wss://, not ${url.protocol}//`;
  if (url.username || url.password) {
    return `"url" must not contain a user name or password (settings are not secret): put credentials in "headers" as "${SECRET_PLACEHOLDER}"`;
  }
  return undefined;
}

/**
 * Built-in presets followed by user agents. A user entry with a preset's name replaces that preset
 * in place (the picker keeps its order); it keeps the preset's install hint only when it still runs
 * the same command, because the hint would be wrong for any other executable.
 */
export function mergeWithPresets(
  userAgents: readonly AgentDefinition[],
  presets: readonly AgentPreset[] = BUILTIN_PRESETS,
): ResolvedAgentDefinition[] {
  const userByName = new Map(userAgents.map((agent) => [agent.name, agent]));
  const merged: ResolvedAgentDefinition[] = presets.map((preset) => {
    const override = userByName.get(preset.name);
    if (!override) return { ...presetDefinition(preset), source: 'preset', installHint: preset.installHint };
    return {
      ...override,
      source: 'settings',
      ...(override.command === preset.command ? { installHint: preset.installHint } : {}),
    };
  });
  const presetNames = new Set(presets.map((preset) => preset.name));
  for (const agent of userAgents) {
    if (!presetNames.has(agent.name)) merged.push({ ...agent, source: 'settings' });
  }
  return merged;
}

function presetDefinition(preset: AgentPreset): AgentDefinition {
  return { name: preset.name, command: preset.command, args: preset.args, env: preset.env };
}

function toDefinition(name: string, entry: AgentEntry): AgentDefinition {
  return {
    name,
    command: entry.command?.trim() ?? '',
    args: entry.args ?? [],
    env: entry.env ?? {},
    ...(entry.url !== undefined ? { remote: { url: entry.url.trim(), headers: entry.headers ?? {} } } : {}),
    ...(entry.defaultMode !== undefined ? { defaultMode: entry.defaultMode } : {}),
    ...(entry.defaultModel !== undefined ? { defaultModel: entry.defaultModel } : {}),
    ...(entry.defaultConfigOptions !== undefined ? { defaultConfigOptions: entry.defaultConfigOptions } : {}),
  };
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const messages = issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return describeUnknownKeys(issue.keys);
    const where = describePath(issue.path);
    // Item-level messages already say "each item of ..."; add the position so it can be found.
    return where ? `${issue.message} (at ${where})` : issue.message;
  });
  return [...new Set(messages)].join('; ');
}

function describeUnknownKeys(keys: readonly string[]): string {
  const parts = keys.map((key) => {
    const suggestion = KEY_SUGGESTIONS[key];
    return suggestion ? `"${key}" (did you mean "${suggestion}"?)` : `"${key}"`;
  });
  return `unknown ${keys.length === 1 ? 'key' : 'keys'} ${parts.join(', ')}; allowed keys are ${ALLOWED_KEYS.join(', ')}`;
}

/** Only nested positions are worth naming: top-level keys are already in the message. */
function describePath(path: readonly PropertyKey[]): string {
  if (path.length < 2) return '';
  return path
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? String(segment) : `.${String(segment)}`))
    .join('');
}

function describeReceived(input: unknown): string {
  return input === undefined ? '' : `, not ${describeValue(input)}`;
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a string' : `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
