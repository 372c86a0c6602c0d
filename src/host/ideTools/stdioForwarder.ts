// The IDE tools for agents that take only stdio MCP servers: a script (dist/ideToolsStdio.js, run by VS Code's
// own runtime) that forwards MCP messages between its stdin/stdout and the session's HTTP server, with the
// URL and token from its environment. A request the server cannot take is answered with an error, so the
// agent never waits for nothing.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { FORWARDER_ENV } from './forwarderEnv';

function fail(message: string): never {
  process.stderr.write(`switchboard IDE tools: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const url = process.env[FORWARDER_ENV.url];
  const token = process.env[FORWARDER_ENV.token];
  if (!url || !token) fail(`${FORWARDER_ENV.url} and ${FORWARDER_ENV.token} must be set (Switchboard sets them for its sessions).`);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    fail(`${FORWARDER_ENV.url} is not a URL: ${url}`);
  }
  if (target.hostname !== '127.0.0.1') fail(`the IDE tools are served on 127.0.0.1 only, not ${target.hostname}`);

  const upstream = new StreamableHTTPClientTransport(target, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const local = new StdioServerTransport();
  const answerWithError = (message: JSONRPCMessage, error: unknown) => {
    process.stderr.write(`switchboard IDE tools: ${error instanceof Error ? error.message : String(error)}\n`);
    if ('method' in message && 'id' in message) {
      const text = `Switchboard's IDE tools did not answer: ${error instanceof Error ? error.message : String(error)}`;
      void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: text } });
    }
  };
  local.onmessage = (message) => void upstream.send(message).catch((error: unknown) => answerWithError(message, error));
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => process.stderr.write(`switchboard IDE tools: ${error.message}\n`);
  const stop = () => void upstream.close().finally(() => process.exit(0));
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  await upstream.start();
  await local.start();
}

void main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
