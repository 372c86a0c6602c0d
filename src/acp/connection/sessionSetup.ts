// What session/new, load, resume and fork send besides the session id, cut to what the agent announced:
// MCP servers of a transport it does not take, additional directories and standing instructions it does
// not support are left out (and logged) rather than sent to fail.
import type { McpServer } from '@agentclientprotocol/sdk';
import type { Logger } from '../logger';
import type { AgentCapabilities } from '../schema/agentResponses';

/** What the caller asks a session to start with. */
export interface SessionParams {
  cwd: string;
  additionalDirectories?: string[];
  mcpServers?: McpServer[];
  /** Standing instructions, sent as `systemPrompt` (append) only to an agent that advertises it. */
  systemPrompt?: string;
}

/** What goes on the wire. */
export interface SessionSetup {
  cwd: string;
  mcpServers: McpServer[];
  additionalDirectories?: string[];
  systemPrompt?: { mode: 'append'; content: { type: 'text'; text: string }[] };
}

export function sessionSetupFor(params: SessionParams, caps: AgentCapabilities, method: string, logger: Logger): SessionSetup {
  const mcpServers = (params.mcpServers ?? []).filter((server) => {
    const type = 'type' in server ? server.type : 'stdio';
    const allowed = type === 'http' ? caps.mcpCapabilities.http : type === 'sse' ? caps.mcpCapabilities.sse : true;
    if (!allowed) logger.warn(`MCP server "${server.name}" (${type}) not sent with ${method}: the agent does not support ${type} MCP servers`);
    return allowed;
  });
  const setup: SessionSetup = { cwd: params.cwd, mcpServers };
  if (params.additionalDirectories && params.additionalDirectories.length > 0) {
    if (caps.sessionCapabilities.additionalDirectories) setup.additionalDirectories = params.additionalDirectories;
    else logger.warn(`additionalDirectories not sent with ${method}: the agent does not support them`);
  }
  if (params.systemPrompt) {
    if (caps.sessionCapabilities.systemPrompt) setup.systemPrompt = { mode: 'append', content: [{ type: 'text', text: params.systemPrompt }] };
    else logger.info(`instructions not sent with ${method}: the agent does not take a systemPrompt`);
  }
  return setup;
}
