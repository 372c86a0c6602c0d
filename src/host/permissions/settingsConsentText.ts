// The sentence a confirmation shows for a workspace's value of a powerful setting: exactly what it would
// grant, in words the user can judge, shortened so a huge value still makes a readable question.
// Loaded when a question is asked (workspaceSettingsGate.ts).
import { grantsSomething, isTable, type GatedSetting } from './settingsConsent';

const MAX_LISTED = 5;
const MAX_COMMAND_CHARS = 80;

function quoted(s: string): string {
  const t = s.length > 60 ? `${s.slice(0, 59)}…` : s;
  return JSON.stringify(t);
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join('; ');
  return items.length > MAX_LISTED ? `${shown}; and ${items.length - MAX_LISTED} more` : shown;
}

/** `cmd a b` of a server or agent entry, shortened; its URL for a remote one. */
function commandOf(entry: unknown): string {
  if (!isTable(entry)) return 'an invalid entry';
  const parts = [entry.command ?? entry.url, ...(Array.isArray(entry.args) ? entry.args : [])].filter((p) => typeof p === 'string') as string[];
  const env = isTable(entry.env) || Array.isArray(entry.env) ? ' with its own environment' : '';
  const line = parts.join(' ');
  if (!line) return `settings${env}`;
  return `${line.length > MAX_COMMAND_CHARS ? `${line.slice(0, MAX_COMMAND_CHARS - 1)}…` : line}${env}`;
}

/** The kinds a table allows, as one phrase ("execute, edit"); empty when it allows none. */
function kindsAllowed(table: Record<string, unknown>): string {
  const kinds = Object.keys(table)
    .filter((k) => table[k] === true)
    .map((k) => (k === '*' ? 'every tool (*)' : quoted(k).slice(1, -1)));
  const shown = kinds.slice(0, MAX_LISTED * 2).join(', ');
  return kinds.length > MAX_LISTED * 2 ? `${shown} and ${kinds.length - MAX_LISTED * 2} more kinds` : shown;
}

function describeAutoApprove(value: unknown): string | undefined {
  if (!isTable(value)) return undefined;
  const parts: string[] = [];
  const global = kindsAllowed(value);
  if (global) parts.push(`${global} for every agent`);
  for (const [agent, table] of Object.entries(value)) {
    if (!isTable(table)) continue;
    const kinds = kindsAllowed(table);
    if (kinds) parts.push(`${kinds} for ${quoted(agent)}`);
  }
  return parts.length ? `This workspace asks to auto-approve: ${listed(parts)}.` : undefined;
}

function describeEntries(value: unknown, what: string): string | undefined {
  if (!isTable(value)) return undefined;
  const entries = Object.entries(value).map(([name, entry]) => `${quoted(name)} (${commandOf(entry)})`);
  return entries.length ? `${what}: ${listed(entries)}.` : undefined;
}

/** The question for a workspace's value of `key`, or undefined when the value grants nothing. */
export function describeGrant(key: GatedSetting, value: unknown): string | undefined {
  if (!grantsSomething(key, value)) return undefined;
  switch (key) {
    case 'autoApprove':
      return describeAutoApprove(value);
    case 'fileAccess':
      return value === 'allow'
        ? 'This workspace asks to let agents read and write any file outside the session\'s folders without asking (switchboard.fileAccess: "allow").'
        : undefined;
    case 'agents':
      return describeEntries(value, 'This workspace defines agents, programs Switchboard would run on your machine');
    case 'mcpServers':
      return describeEntries(value, 'This workspace adds MCP servers that every agent would start');
    case 'vscodeMcpServers':
      return Array.isArray(value) && value.length
        ? `This workspace defines MCP servers (its mcp.servers setting or .vscode/mcp.json) that every agent would start: ${listed(value.map((s) => (isTable(s) ? `${quoted(String(s.name ?? '?'))} (${commandOf(s)})` : 'an invalid entry')))}.`
        : undefined;
    case 'registry.url':
      return typeof value === 'string' && value.trim()
        ? `This workspace points the agent registry at ${quoted(value.trim())}: agents you add from it run on your machine.`
        : undefined;
    case 'useVSCodeMcpServers':
      return value === true ? "This workspace asks to pass VS Code's own MCP servers (mcp.servers and .vscode/mcp.json) to every agent." : undefined;
    case 'instructions':
      return typeof value === 'string' && value.trim() ? `This workspace gives every agent standing instructions: ${quoted(value.trim())}.` : undefined;
    case 'instructionsFile':
      return typeof value === 'string' && value.trim() ? `This workspace gives every agent the standing instructions in ${quoted(value.trim())}.` : undefined;
  }
}
