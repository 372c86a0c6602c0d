import * as z from '../zod';
import { describeValue, isPlainObject } from '../agentSettings';

/*
 * The ACP Registry's JSON (github.com/agentclientprotocol/registry, FORMAT.md): `{version, agents: [...]}`.
 * Lenient like the protocol schemas: unknown fields and distribution kinds are kept (a newer registry must
 * not break an older Switchboard), but what Switchboard needs (id, name, version, a well-formed
 * distribution) is checked, and each rejected agent yields one message that names the agent and the field.
 * One bad agent never hides the others.
 */

export const REGISTRY_PLATFORMS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
] as const;
export type RegistryPlatform = (typeof REGISTRY_PLATFORMS)[number];

/** "is missing" when absent, else "must be <shape>, not <what it is>". */
const must = (what: string, shape: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${what} is missing` : `${what} must be ${shape}, not ${describeValue(issue.input)}`;
const text = (what: string) => z.string({ error: must(what, 'a string') });
const nonEmpty = (what: string) => text(what).check(z.refine((v) => v.trim().length > 0, { error: `${what} must not be empty` }));
const stringArray = (what: string) =>
  z.array(text(`each item of ${what}`), { error: must(what, 'an array of strings') });
const stringRecord = (what: string) =>
  z.record(z.string(), text(`each value of ${what}`), { error: must(what, 'an object of strings') });

/**
 * Ids and versions become folder names (`agents/<id>/<version>/`), so they are restricted to characters that
 * are safe in every file system and can never be `.`/`..` or contain a separator.
 */
const ID = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;
const VERSION = /^v?\d+(?:\.\d+){0,3}(?:[-+][0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)*$/;

const packageDistribution = (kind: string) =>
  z.looseObject(
    {
      // An argument starting with "-" would be read by npx/uvx as one of their own options.
      package: nonEmpty(`"distribution.${kind}.package"`).check(
        z.refine((v) => !v.trim().startsWith('-'), { error: `"distribution.${kind}.package" must not start with "-"` }),
      ),
      args: z.optional(stringArray(`"distribution.${kind}.args"`)),
      env: z.optional(stringRecord(`"distribution.${kind}.env"`)),
    },
    { error: must(`"distribution.${kind}"`, 'an object') },
  );

const binaryTarget = z.looseObject(
  {
    archive: nonEmpty('"archive"'),
    cmd: nonEmpty('"cmd"'),
    args: z.optional(stringArray('"args"')),
    env: z.optional(stringRecord('"env"')),
    sha256: z.optional(text('"sha256"').check(z.regex(/^[0-9a-fA-F]{64}$/, { error: '"sha256" must be 64 hexadecimal digits' }))),
  },
  { error: must('each platform of "distribution.binary"', 'an object') },
);

const distribution = z.looseObject(
  {
    npx: z.optional(packageDistribution('npx')),
    uvx: z.optional(packageDistribution('uvx')),
    binary: z.optional(z.record(z.string(), binaryTarget, { error: must('"distribution.binary"', 'an object') })),
  },
  { error: must('"distribution"', 'an object') },
);

export const registryAgentSchema = z.looseObject({
  id: text('"id"').check(z.regex(ID, { error: '"id" must be lowercase letters and digits separated by "-", "_" or "."' })),
  name: nonEmpty('"name"'),
  version: text('"version"').check(z.regex(VERSION, { error: '"version" must look like 1.2.3 (semver)' })),
  description: z.optional(text('"description"')),
  repository: z.optional(text('"repository"')),
  authors: z.optional(stringArray('"authors"')),
  license: z.optional(text('"license"')),
  icon: z.optional(text('"icon"')),
  distribution,
});

export type RegistryAgent = z.infer<typeof registryAgentSchema>;
export type BinaryTarget = z.infer<typeof binaryTarget>;
export type PackageDistribution = z.infer<ReturnType<typeof packageDistribution>>;

export interface Registry {
  readonly version?: string;
  readonly agents: readonly RegistryAgent[];
}

export type RegistryParseResult =
  | { ok: true; registry: Registry; /** One per agent that was left out. */ problems: string[] }
  | { ok: false; error: string };

/** Validates a parsed registry document. Fails only when nothing usable is left. */
export function parseRegistry(value: unknown): RegistryParseResult {
  if (!isPlainObject(value)) return { ok: false, error: `the registry must be a JSON object with "agents", but it is ${describeValue(value)}` };
  if (!Array.isArray(value.agents)) {
    return { ok: false, error: `"agents" must be an array${value.agents === undefined ? ', but it is missing' : `, but it is ${describeValue(value.agents)}`}` };
  }
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  value.agents.forEach((entry: unknown, index) => {
    const label = agentLabel(entry, index);
    const parsed = registryAgentSchema.safeParse(entry);
    if (!parsed.success) {
      problems.push(`${label} was left out: ${formatIssues(parsed.error.issues)}`);
      return;
    }
    if (seen.has(parsed.data.id)) {
      problems.push(`${label} was left out: another agent has the same "id"`);
      return;
    }
    seen.add(parsed.data.id);
    agents.push(parsed.data);
  });
  if (agents.length === 0 && problems.length > 0) return { ok: false, error: `no agent in the registry is valid. ${problems.join('. ')}` };
  const version = typeof value.version === 'string' ? value.version : undefined;
  return { ok: true, registry: { ...(version ? { version } : {}), agents }, problems };
}

/** Parses the registry's text (it arrives as bytes from the network or the cache). */
export function parseRegistryText(textValue: string): RegistryParseResult {
  let json: unknown;
  try {
    json = JSON.parse(textValue);
  } catch (error) {
    return { ok: false, error: `the registry is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  return parseRegistry(json);
}

function agentLabel(entry: unknown, index: number): string {
  const id = isPlainObject(entry) && typeof entry.id === 'string' && entry.id.length <= 80 ? ` "${entry.id}"` : '';
  return `agent${id} (#${index + 1})`;
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  // Top-level and distribution messages name their field; nested ones get the position to find them.
  const messages = issues.map((issue) => (issue.path.length > 2 ? `${issue.message} (at ${fieldName(issue.path)})` : issue.message));
  return [...new Set(messages)].join('; ');
}

function fieldName(path: readonly PropertyKey[]): string {
  return `"${path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('')}"`;
}
