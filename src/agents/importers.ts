import type { AgentConfigProblem, AgentDefinition } from './agentDefinition';
import { describeValue, isPlainObject, parseAgentEntry } from './agentSettings';
import { parseJsonc } from './parseJsonc';

/*
 * Import agents from other ACP clients' configuration files. Pure functions on the file text: the
 * host reads the file, lets the user pick entries, and writes them into `switchboard.agents`.
 */

export interface AgentImportResult {
  /** Entries that can be written into `switchboard.agents` as they are. */
  readonly agents: AgentDefinition[];
  /** Well-formed entries that cannot be imported (e.g. Zed registry agents have no command). */
  readonly skipped: AgentConfigProblem[];
  /** Malformed entries, or (entry undefined) a file that cannot be read at all. */
  readonly problems: AgentConfigProblem[];
}

/** Zed built-in / registry agent ids and the Switchboard preset that launches the same agent. */
const ZED_AGENT_PRESETS: Readonly<Record<string, string>> = {
  claude: 'Claude Agent',
  'claude-acp': 'Claude Agent',
  'claude-code': 'Claude Agent',
  claude_code: 'Claude Agent',
  gemini: 'Gemini CLI',
  codex: 'Codex',
  'codex-acp': 'Codex',
  opencode: 'OpenCode',
  'qwen-code': 'Qwen Code',
  qwen: 'Qwen Code',
};

/**
 * Reads `agent_servers` from a Zed `settings.json` (JSONC). Custom entries (`"type": "custom"`, or
 * the older untyped `{command, args, env}`) are imported; registry, extension and built-in entries
 * have no command line in the file (Zed downloads them itself) and are reported as skipped.
 */
export function importZedSettings(text: string): AgentImportResult {
  const servers = readAgentServers(text, 'Zed settings.json');
  if (!servers.ok) return { agents: [], skipped: [], problems: [servers.problem] };
  const agents: AgentDefinition[] = [];
  const skipped: AgentConfigProblem[] = [];
  const problems: AgentConfigProblem[] = [];
  for (const [name, entry] of Object.entries(servers.value)) {
    if (!isPlainObject(entry)) {
      problems.push({ entry: name, message: `Zed agent "${name}" was not imported: it must be an object, but it is ${describeValue(entry)}.` });
      continue;
    }
    const launch = zedLaunchFields(entry);
    if (launch === undefined) {
      skipped.push({ entry: name, message: zedSkipReason(name, entry) });
      continue;
    }
    const result = parseAgentEntry(name, launch);
    if (result.ok) agents.push(result.definition);
    else problems.push({ entry: name, message: `Zed agent "${name}" was not imported: ${result.reason}.` });
  }
  return { agents, skipped, problems };
}

/**
 * Reads a JetBrains `~/.jetbrains/acp.json`: `{"agent_servers": {name: {command, args, env}}}`, with
 * the session defaults entries pasted from Zed carry (other top-level keys such as
 * `default_mcp_settings` and JetBrains-only entry flags are ignored).
 */
export function importJetBrainsAcpJson(text: string): AgentImportResult {
  const servers = readAgentServers(text, 'JetBrains acp.json');
  if (!servers.ok) return { agents: [], skipped: [], problems: [servers.problem] };
  const agents: AgentDefinition[] = [];
  const problems: AgentConfigProblem[] = [];
  for (const [name, entry] of Object.entries(servers.value)) {
    if (!isPlainObject(entry)) {
      problems.push({ entry: name, message: `JetBrains agent "${name}" was not imported: it must be an object, but it is ${describeValue(entry)}.` });
      continue;
    }
    const result = parseAgentEntry(name, pickDefined({ command: entry.command, args: entry.args, env: entry.env, ...defaultFields(entry) }));
    if (result.ok) agents.push(result.definition);
    else problems.push({ entry: name, message: `JetBrains agent "${name}" was not imported: ${result.reason}.` });
  }
  return { agents, skipped: [], problems };
}

type AgentServersResult = { ok: true; value: Record<string, unknown> } | { ok: false; problem: AgentConfigProblem };

function readAgentServers(text: string, fileLabel: string): AgentServersResult {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { ok: false, problem: { entry: undefined, message: `The ${fileLabel} file is not valid JSON: ${parsed.message}.` } };
  if (!isPlainObject(parsed.value)) {
    return { ok: false, problem: { entry: undefined, message: `The ${fileLabel} file must contain an object, but it contains ${describeValue(parsed.value)}.` } };
  }
  const servers = parsed.value.agent_servers;
  if (servers === undefined) {
    return { ok: false, problem: { entry: undefined, message: `The ${fileLabel} file has no "agent_servers" section, so there is nothing to import.` } };
  }
  if (!isPlainObject(servers)) {
    return { ok: false, problem: { entry: undefined, message: `"agent_servers" in the ${fileLabel} file must be an object, but it is ${describeValue(servers)}.` } };
  }
  return { ok: true, value: servers };
}

/**
 * The launch fields of a Zed entry in Switchboard's shape, or undefined when the entry has no
 * command. Zed has used a plain `command` string, a nested `command: {path|command, args, env}`,
 * and a top-level `path`; all three are read. Zed-only keys (favourites, type, ...) are dropped.
 */
function zedLaunchFields(entry: Record<string, unknown>): Record<string, unknown> | undefined {
  if (entry.type === 'registry' || entry.type === 'extension') return undefined;
  let command: unknown = entry.command ?? entry.path;
  let args: unknown = entry.args;
  let env: unknown = entry.env;
  if (isPlainObject(command)) {
    const nested = command;
    command = nested.path ?? nested.command;
    args = nested.args ?? args;
    env = nested.env ?? env;
  }
  if (command === undefined) return undefined;
  return pickDefined({
    command,
    args,
    env,
    ...defaultFields(entry),
  });
}

/** The session defaults of an `agent_servers` entry (snake_case there) under Switchboard's names. */
function defaultFields(entry: Record<string, unknown>): Record<string, unknown> {
  return { defaultMode: entry.default_mode, defaultModel: entry.default_model, defaultConfigOptions: entry.default_config_options };
}

/** An imported agent as its `switchboard.agents` value: everything it was imported with, nothing empty. */
export function agentSettingsEntry(agent: AgentDefinition): Record<string, unknown> {
  return pickDefined({
    command: agent.command,
    args: [...agent.args],
    env: Object.keys(agent.env).length > 0 ? { ...agent.env } : undefined,
    defaultMode: agent.defaultMode,
    defaultModel: agent.defaultModel,
    defaultConfigOptions: agent.defaultConfigOptions !== undefined ? { ...agent.defaultConfigOptions } : undefined,
  });
}

function zedSkipReason(name: string, entry: Record<string, unknown>): string {
  const kind =
    entry.type === 'registry'
      ? 'is installed from the ACP registry by Zed'
      : entry.type === 'extension'
        ? 'is provided by a Zed extension'
        : 'is one of Zed\'s built-in agents';
  const preset = ZED_AGENT_PRESETS[name.toLowerCase()];
  const instead = preset ? ` Use Switchboard's built-in "${preset}" preset instead` : ' Add it by hand with the command that starts it';
  const envNote = isPlainObject(entry.env) && Object.keys(entry.env).length > 0 ? ' (copy its "env" values too)' : '';
  return `Zed agent "${name}" was skipped: it ${kind} and has no "command" to import.${instead}${envNote}.`;
}

function pickDefined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
