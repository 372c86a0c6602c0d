// `switchboard.mcpServers` (name -> {command,args,env} | {type: http|sse, url, headers}) as ACP McpServer
// entries. Malformed entries are skipped with a log line; the connection filters by agent capability.
import type { McpServer } from '@agentclientprotocol/sdk';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function pairs(value: unknown): { name: string; value: string }[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([name, v]) => ({ name, value: v }));
}

export function parseMcpServers(value: unknown, log?: (message: string) => void): McpServer[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const servers: McpServer[] = [];
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const entry = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const type = entry.type;
    if ((type === 'http' || type === 'sse') && typeof entry.url === 'string') {
      servers.push({ type, name, url: entry.url, headers: pairs(entry.headers) });
    } else if ((type === undefined || type === 'stdio') && typeof entry.command === 'string' && entry.command) {
      servers.push({ name, command: entry.command, args: strings(entry.args), env: pairs(entry.env) });
    } else {
      log?.(`switchboard.mcpServers["${name}"] was skipped: it needs {command, args?, env?} or {type: "http" | "sse", url, headers?}.`);
    }
  }
  return servers;
}

/**
 * VS Code's own MCP server definitions (`mcp.servers` in settings, `servers` in `.vscode/mcp.json`),
 * in the same shapes. Servers that need `${input:…}` prompts VS Code resolves only for itself are
 * skipped with a message.
 */
export function parseVSCodeMcpServers(servers: unknown, log?: (message: string) => void): McpServer[] {
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return [];
  const usable: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    if (JSON.stringify(entry ?? null).includes('${input:')) {
      log?.(`VS Code MCP server "${name}" was not passed to agents: it needs \${input:…} values only VS Code can ask for.`);
      continue;
    }
    usable[name] = entry;
  }
  return parseMcpServers(usable, log);
}

/** Switchboard's own entries win over VS Code's of the same name. */
export function mergeMcpServers(own: readonly McpServer[], fromVSCode: readonly McpServer[]): McpServer[] {
  const names = new Set(own.map((s) => s.name));
  return [...own, ...fromVSCode.filter((s) => !names.has(s.name))];
}
