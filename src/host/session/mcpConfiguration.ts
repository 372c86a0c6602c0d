// The MCP servers passed to session/new and session/load: `switchboard.mcpServers`, plus VS Code's own
// definitions (`mcp.servers`, `.vscode/mcp.json`) when `switchboard.useVSCodeMcpServers` is on. Every agent
// starts these servers, so what a workspace defines (its settings, its `.vscode/mcp.json`) is passed only
// in a trusted workspace and once the user confirmed it (WorkspaceSettingsGate asks).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '../../acp';
import { mergeMcpServers, parseMcpServers, parseVSCodeMcpServers } from '../../agents';
import type { WorkspaceSettingsGate } from '../permissions/workspaceSettingsGate';

export async function readMcpServers(log: vscode.LogOutputChannel, gate: WorkspaceSettingsGate): Promise<McpServer[]> {
  const warn = (m: string) => log.warn(m);
  const own = gate.read<unknown>('mcpServers');
  // A confirmed workspace entry wins over the user's of the same name, as VS Code merges settings.
  const servers = mergeMcpServers(parseMcpServers(own.workspace, warn), parseMcpServers(own.user, warn));
  if (gate.effective<boolean>('useVSCodeMcpServers') !== true) return servers;
  const fromUser = parseVSCodeMcpServers(vscode.workspace.getConfiguration('mcp').inspect('servers')?.globalValue, warn);
  const fromWorkspace = vscode.workspace.isTrusted ? await workspaceVSCodeServers(warn) : [];
  const confirmed = fromWorkspace.length > 0 && gate.allows('vscodeMcpServers', fromWorkspace) ? fromWorkspace : [];
  return mergeMcpServers(servers, mergeMcpServers(confirmed, fromUser));
}

/** The workspace's own VS Code MCP servers: its `mcp.servers` setting and each folder's `.vscode/mcp.json` (JSONC: its parser loads here). */
async function workspaceVSCodeServers(warn: (m: string) => void): Promise<McpServer[]> {
  const inspected = vscode.workspace.getConfiguration('mcp').inspect('servers');
  const found = parseVSCodeMcpServers(inspected?.workspaceFolderValue ?? inspected?.workspaceValue, warn);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const file = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // no mcp.json in this folder
    }
    const parsed = (await import('../../agents/parseJsonc')).parseJsonc(text);
    if (!parsed.ok) {
      warn(`${file} is not valid JSON (${parsed.message}); its MCP servers were not passed to agents.`);
      continue;
    }
    const servers = typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as { servers?: unknown }).servers : undefined;
    found.push(...parseVSCodeMcpServers(servers, warn));
  }
  return found;
}
