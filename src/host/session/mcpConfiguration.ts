// The MCP servers passed to session/new and session/load: `switchboard.mcpServers`, plus VS Code's own
// definitions (`mcp.servers`, `.vscode/mcp.json`) when `switchboard.useVSCodeMcpServers` is on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '../../acp';
import { mergeMcpServers, parseJsonc, parseMcpServers, parseVSCodeMcpServers } from '../../agents';

export function readMcpServers(log: vscode.LogOutputChannel): McpServer[] {
  const warn = (m: string) => log.warn(m);
  const config = vscode.workspace.getConfiguration('switchboard');
  const own = parseMcpServers(config.get('mcpServers'), warn);
  if (!config.get<boolean>('useVSCodeMcpServers', false)) return own;
  const fromVSCode = parseVSCodeMcpServers(vscode.workspace.getConfiguration('mcp').get('servers'), warn);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const file = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    if (!fs.existsSync(file)) continue;
    const parsed = parseJsonc(fs.readFileSync(file, 'utf8'));
    if (!parsed.ok) {
      warn(`${file} is not valid JSON (${parsed.message}); its MCP servers were not passed to agents.`);
      continue;
    }
    const servers = typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as { servers?: unknown }).servers : undefined;
    fromVSCode.push(...parseVSCodeMcpServers(servers, warn));
  }
  return mergeMcpServers(own, fromVSCode);
}
