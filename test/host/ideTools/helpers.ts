// For the IDE tools' host tests: the `switchboard` MCP entry a session was given (read from what the fake
// agent recorded), and official MCP SDK clients connected through it, over HTTP or through the stdio forwarder.
import * as fs from 'fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface HttpEntry {
  type: 'http';
  name: string;
  url: string;
  headers: { name: string; value: string }[];
}
export interface StdioEntry {
  name: string;
  command: string;
  args: string[];
  env: { name: string; value: string }[];
}
export type Entry = HttpEntry | StdioEntry;

const SESSION_SETUP = ['session/new', 'session/load', 'session/resume', 'session/fork'];

/** The MCP servers of each session setup request the fake agent recorded, in order. */
export function recordedMcpServers(recordFile: string): Entry[][] {
  if (!fs.existsSync(recordFile)) return [];
  return fs
    .readFileSync(recordFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method: string; params: { mcpServers?: Entry[] } })
    .filter((r) => SESSION_SETUP.includes(r.method))
    .map((r) => r.params.mcpServers ?? []);
}

/** The `switchboard` entry of the last session setup the fake agent recorded. */
export function lastIdeToolsEntry(recordFile: string): Entry | undefined {
  return recordedMcpServers(recordFile).at(-1)?.find((s) => s.name === 'switchboard');
}

export function tokenOf(entry: HttpEntry): string {
  return entry.headers.find((h) => h.name === 'Authorization')!.value.replace(/^Bearer /, '');
}

export async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'ideTools-host-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** Runs the entry's command the way an agent would, and talks MCP to it over stdio. */
export async function stdioClient(entry: StdioEntry): Promise<Client> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const { name, value } of entry.env) env[name] = value;
  const client = new Client({ name: 'ideTools-host-test-stdio', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env, stderr: 'pipe' }));
  return client;
}

/** Calls a tool; an error result or a refused call come back as `{isError: true, text}`. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string; structured: Record<string, unknown> }> {
  try {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Record<string, unknown> };
  } catch (error) {
    return { isError: true, text: error instanceof Error ? error.message : String(error), structured: {} };
  }
}
