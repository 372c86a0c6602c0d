// The `switchboard` MCP server: Streamable HTTP on 127.0.0.1 (a random port), one random bearer token per
// session. A token reaches only the tools of its own session (its backend); an MCP connection opened with one
// token is not reachable with another. Built on the official MCP SDK; no `vscode` here, so it runs in plain
// Node tests with a stand-in backend. Bundled on its own (dist/ideToolsServer.js, with the SDK and the zod
// API it brings) and imported by ideTools.ts when the first session opens, so neither weighs on the chat's startup.
import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { withinBudget } from './resultBudget';
import { TOOL_NAMES, TOOLS, type IdeToolsBackend, type ToolInput, type ToolName } from './toolSchemas';

/** Bytes a request body may have: tool arguments are small. */
const MAX_BODY_BYTES = 1_000_000;
/** Protects against a slow client holding a connection forever. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface IdeToolsLog {
  info(message: string): void;
  warn(message: string): void;
}

/** One tool call a session's agent made, for the protocol log. */
export interface IdeToolCall {
  tool: string;
  args: unknown;
  ms: number;
  /** Characters of the answer's JSON. */
  answerChars?: number;
  error?: string;
}

interface Grant {
  token: string;
  /** Who the token belongs to, for the log. */
  label: string;
  backend: IdeToolsBackend;
  connections: Set<string>;
  /** Told of each call (the session's protocol log). */
  onCall?: (call: IdeToolCall) => void;
}

interface Connection {
  grant: Grant;
  server: McpServer;
  transport: StreamableHTTPServerTransport;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class IdeToolsServer {
  private readonly grants = new Map<string, Grant>();
  private readonly connections = new Map<string, Connection>();

  private constructor(
    private readonly http: http.Server,
    readonly url: string,
    private readonly log: IdeToolsLog,
    private readonly version: string,
  ) {}

  /** Listens on 127.0.0.1 at a port the system picks. */
  static async start(log: IdeToolsLog, version = '0.0.0'): Promise<IdeToolsServer> {
    const server = http.createServer();
    server.requestTimeout = REQUEST_TIMEOUT_MS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const tools = new IdeToolsServer(server, `http://127.0.0.1:${port}/mcp`, log, version);
    server.on('request', (req, res) => void tools.handle(req, res));
    return tools;
  }

  /** A new token that reaches `backend` until revoked; `onCall` hears of each call made with it. */
  grant(label: string, backend: IdeToolsBackend, onCall?: (call: IdeToolCall) => void): string {
    const token = randomBytes(32).toString('base64url');
    this.grants.set(token, { token, label, backend, connections: new Set(), onCall });
    return token;
  }

  /** The token stops working; its open MCP connections close. */
  async revoke(token: string): Promise<void> {
    const grant = this.grants.get(token);
    if (!grant) return;
    this.grants.delete(token);
    await Promise.all([...grant.connections].map((id) => this.closeConnection(id)));
  }

  get grantCount(): number {
    return this.grants.size;
  }

  async close(): Promise<void> {
    for (const token of [...this.grants.keys()]) await this.revoke(token);
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      // A page in a browser that resolves its own name to 127.0.0.1 (DNS rebinding) sends its own Host.
      if (req.headers.host !== new URL(this.url).host) throw new HttpError(403, 'The IDE tools answer only requests addressed to 127.0.0.1.');
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') throw new HttpError(404, 'Not found: the IDE tools answer at /mcp.');
      const grant = this.authenticate(req);
      const sessionId = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (typeof sessionId === 'string') {
        const connection = this.connections.get(sessionId);
        // Another token's connection is answered as if it did not exist: nothing of it shows.
        if (!connection || connection.grant !== grant) throw new HttpError(404, 'Unknown MCP session for this token.');
        // The agent has the tools from here on (agents connect in the background; a turn may start before).
        const listing = isToolsList(body);
        await connection.transport.handleRequest(req, res, body);
        if (listing) this.log.info(`IDE tools: ${grant.label} listed the tools`);
        return;
      }
      if (req.method !== 'POST') throw new HttpError(405, 'Start with an initialize request (POST).');
      await this.connect(grant, req, res, body);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      if (status === 500) this.log.warn(`IDE tools: request failed: ${errorMessage(error)}`);
      if (res.headersSent) return void res.end();
      const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
      if (status === 401) headers['www-authenticate'] = 'Bearer';
      // The rest of a refused body is not read: this connection cannot carry another request.
      if (status === 413) headers.connection = 'close';
      res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: errorMessage(error) }, id: null }));
    }
  }

  private authenticate(req: http.IncomingMessage): Grant {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const grant = match ? this.grants.get(match[1]) : undefined;
    if (!grant) throw new HttpError(401, 'The IDE tools need the bearer token Switchboard gave this session; this one is missing, wrong or expired.');
    return grant;
  }

  /** A new MCP connection (an initialize request) for the grant's session. */
  private async connect(grant: Grant, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    const server = this.mcpServer(grant);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.connections.set(id, { grant, server, transport });
        grant.connections.add(id);
        this.log.info(`IDE tools: ${grant.label} connected`);
      },
      onsessionclosed: (id) => void this.closeConnection(id),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    // Not an initialize request, or a refused one: nothing to keep.
    if (!transport.sessionId || !this.connections.has(transport.sessionId)) await server.close();
  }

  private async closeConnection(id: string): Promise<void> {
    const connection = this.connections.get(id);
    if (!connection) return;
    this.connections.delete(id);
    connection.grant.connections.delete(id);
    await connection.server.close().catch((e: unknown) => this.log.warn(`IDE tools: closing an MCP connection failed: ${errorMessage(e)}`));
  }

  private mcpServer(grant: Grant): McpServer {
    const server = new McpServer({ name: 'switchboard', version: this.version }, { capabilities: { tools: {} } });
    for (const name of TOOL_NAMES) {
      const tool = TOOLS[name];
      server.registerTool(
        name,
        { description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: { readOnlyHint: true, openWorldHint: false } },
        (args: ToolInput<ToolName>) => this.call(grant, name, args),
      );
    }
    return server;
  }

  private async call(grant: Grant, name: ToolName, args: ToolInput<ToolName>): Promise<CallToolResult> {
    const started = performance.now();
    const took = () => `${(performance.now() - started).toFixed(1)} ms`;
    try {
      const result = withinBudget(await grant.backend.call(name, args));
      const text = JSON.stringify(result);
      this.log.info(`IDE tools: ${grant.label} called ${name} ${JSON.stringify(args)}: answered in ${took()}`);
      grant.onCall?.({ tool: name, args, ms: performance.now() - started, answerChars: text.length });
      return { content: [{ type: 'text', text }], structuredContent: result };
    } catch (error) {
      this.log.warn(`IDE tools: ${grant.label} called ${name} ${JSON.stringify(args)}: ${errorMessage(error)} (${took()})`);
      grant.onCall?.({ tool: name, args, ms: performance.now() - started, error: errorMessage(error) });
      return { isError: true, content: [{ type: 'text', text: errorMessage(error) }] };
    }
  }
}

function isToolsList(body: unknown): boolean {
  const one = (m: unknown) => typeof m === 'object' && m !== null && 'method' in m && m.method === 'tools/list';
  return Array.isArray(body) ? body.some(one) : one(body);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `A request to the IDE tools may have at most ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not JSON.');
  }
}
