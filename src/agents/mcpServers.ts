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
