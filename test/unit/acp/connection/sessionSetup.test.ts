import * as assert from 'assert';
import type { McpServer } from '@agentclientprotocol/sdk';
import { sessionSetupFor } from '../../../../src/acp/connection/sessionSetup';
import { InitializeResultSchema } from '../../../../src/acp/schema/agentResponses';
import { capturingLogger } from '../helpers';

const capsOf = (agentCapabilities: unknown) => InitializeResultSchema.parse({ protocolVersion: 1, agentCapabilities }).agentCapabilities;
const servers: McpServer[] = [
  { name: 'stdio-one', command: 'node', args: [], env: [] },
  { type: 'http', name: 'http-one', url: 'http://127.0.0.1:1/mcp', headers: [] },
  { type: 'sse', name: 'sse-one', url: 'http://127.0.0.1:1/sse', headers: [] },
];

describe('acp: what a session starts with', () => {
  it('sends everything to an agent that announced it all', () => {
    const caps = capsOf({ mcpCapabilities: { http: true, sse: true }, sessionCapabilities: { additionalDirectories: {}, systemPrompt: {} } });
    const logger = capturingLogger();
    const setup = sessionSetupFor({ cwd: '/w', additionalDirectories: ['/x'], mcpServers: servers, systemPrompt: 'Be brief.' }, caps, 'session/new', logger);
    assert.deepStrictEqual(setup, {
      cwd: '/w',
      mcpServers: servers,
      additionalDirectories: ['/x'],
      systemPrompt: { mode: 'append', content: [{ type: 'text', text: 'Be brief.' }] },
    });
    assert.deepStrictEqual(logger.lines, []);
  });

  it('leaves out what the agent did not announce, saying so in the log; stdio MCP servers always go', () => {
    const logger = capturingLogger();
    const setup = sessionSetupFor({ cwd: '/w', additionalDirectories: ['/x'], mcpServers: servers, systemPrompt: 'Be brief.' }, capsOf({}), 'session/load', logger);
    assert.deepStrictEqual(setup, { cwd: '/w', mcpServers: [servers[0]] });
    assert.ok(logger.lines.some((l) => l.includes('"http-one" (http) not sent with session/load')));
    assert.ok(logger.lines.some((l) => l.includes('"sse-one" (sse)')));
    assert.ok(logger.lines.some((l) => l.includes('additionalDirectories not sent')));
    assert.ok(logger.lines.some((l) => l.includes('instructions not sent')));
  });

  it('sends no empty extras: no directories, no instructions, no servers', () => {
    const caps = capsOf({ sessionCapabilities: { additionalDirectories: {}, systemPrompt: {} } });
    assert.deepStrictEqual(sessionSetupFor({ cwd: '/w', additionalDirectories: [], systemPrompt: '' }, caps, 'session/new', capturingLogger()), { cwd: '/w', mcpServers: [] });
  });
});
