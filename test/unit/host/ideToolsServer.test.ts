// The IDE tools' MCP server against the official MCP SDK client, in plain Node: the tools' input and output
// schemas as agents see them, every tool's result validated by the client against its output schema, and the
// bad requests (no or wrong token, another token's MCP session, malformed arguments, a huge result, a failing
// backend, junk bodies). VS Code's side is a stand-in backend here; test/host/ideTools runs the real one.
// The stdio forwarder is run as a process, with the SDK's stdio client.
import * as assert from 'assert';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FORWARDER_ENV } from '../../../src/host/ideTools/forwarderEnv';
import { IdeToolsServer, type IdeToolCall } from '../../../src/host/ideTools/ideToolsServer';
import { MAX_RESULT_CHARS } from '../../../src/host/ideTools/resultBudget';
import { TOOL_NAMES, type IdeToolsBackend, type ToolName } from '../../../src/host/ideTools/toolSchemas';

const range = { start: { line: 1, character: 1 }, end: { line: 1, character: 5 } };

/** A result of the right shape for each tool. */
const answers: Record<ToolName, object> = {
  diagnostics: { diagnostics: [{ path: '/w/a.json', range, severity: 'error', message: 'Expected comma', source: 'json', code: '514' }] },
  document_symbols: { symbols: [{ name: 'greet', kind: 'function', container: 'mod', range }] },
  workspace_symbols: { symbols: [{ name: 'greet', kind: 'function', path: '/w/a.ts', range }], outsideFolders: 2 },
  definition: { locations: [{ path: '/w/a.ts', range }] },
  references: { locations: [{ path: '/w/a.ts', range }, { path: '/w/b.ts', range }] },
  hover: { contents: ['```ts\nfunction greet(): string\n```'], range },
  open_editors: { editors: [{ path: '/w/a.ts', languageId: 'typescript', dirty: true, active: true, group: 1 }] },
  selection: { path: '/w/a.ts', languageId: 'typescript', selections: [{ range, text: 'greet' }] },
};

/** Valid arguments for each tool. */
const args: Record<ToolName, Record<string, unknown>> = {
  diagnostics: { path: '/w/a.json' },
  document_symbols: { path: '/w/a.ts' },
  workspace_symbols: { query: 'gre' },
  definition: { path: '/w/a.ts', line: 3, character: 7 },
  references: { path: '/w/a.ts', line: 3, character: 7, includeDeclaration: false },
  hover: { path: '/w/a.ts', line: 3, character: 7 },
  open_editors: {},
  selection: {},
};

/** Arguments each tool's schema refuses. */
const badArgs: Record<ToolName, Record<string, unknown>[]> = {
  diagnostics: [{ path: 5 }, { path: '' }, { path: 'x'.repeat(5000) }],
  document_symbols: [{}, { path: null }],
  workspace_symbols: [{}, { query: 'q'.repeat(201) }],
  definition: [{ path: '/w/a.ts' }, { path: '/w/a.ts', line: 0, character: 1 }, { path: '/w/a.ts', line: 1.5, character: 1 }],
  references: [{ path: '/w/a.ts', line: 1, character: -1 }, { path: '/w/a.ts', line: 1, character: 1, includeDeclaration: 'yes' }],
  hover: [{ line: 1, character: 1 }, { path: '/w/a.ts', line: '1', character: 1 }],
  open_editors: [],
  selection: [],
};

class StandIn implements IdeToolsBackend {
  calls: { name: ToolName; args: unknown }[] = [];
  answer: (name: ToolName) => object = (name) => answers[name];
  async call<K extends ToolName>(name: K, a: unknown): Promise<never> {
    this.calls.push({ name, args: a });
    return this.answer(name) as never;
  }
}

const quiet = { info: () => undefined, warn: () => undefined };

async function connect(server: IdeToolsServer, token: string | undefined): Promise<Client> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  const client = new Client({ name: 'ideTools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return client;
}

async function post(server: IdeToolsServer, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
}

const toolCall = (name: string, a: unknown, id = 2) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: a } });

describe('host: IDE tools MCP server (official SDK client, stand-in VS Code)', function () {
  this.timeout(30_000);
  let server: IdeToolsServer;
  let backend: StandIn;
  let token: string;
  const clients: Client[] = [];
  const open = async (t: string | undefined) => {
    const c = await connect(server, t);
    clients.push(c);
    return c;
  };

  beforeEach(async () => {
    server = await IdeToolsServer.start(quiet, '1.2.3');
    backend = new StandIn();
    token = server.grant('test session', backend);
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await server.close();
  });

  it('listens on 127.0.0.1 only, at /mcp', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('lists the eight read-only tools with JSON input and output schemas', async () => {
    const client = await open(token);
    assert.deepStrictEqual(client.getServerVersion()?.name, 'switchboard');
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    for (const tool of tools) {
      assert.strictEqual(tool.inputSchema.type, 'object', tool.name);
      assert.strictEqual(tool.outputSchema?.type, 'object', tool.name);
      assert.strictEqual(tool.annotations?.readOnlyHint, true, tool.name);
      assert.ok(tool.description && tool.description.length > 20, tool.name);
    }
    const definition = tools.find((t) => t.name === 'definition')!;
    assert.deepStrictEqual([...(definition.inputSchema.required ?? [])].sort(), ['character', 'line', 'path']);
  });

  it('logs when a client connects and when it has listed the tools (agents connect in the background)', async () => {
    const lines: string[] = [];
    const logged = await IdeToolsServer.start({ info: (m: string) => void lines.push(m), warn: () => undefined }, '1.2.3');
    try {
      const client = await connect(logged, logged.grant('Qwen (session 12345678)', backend));
      clients.push(client);
      assert.deepStrictEqual(lines, ['IDE tools: Qwen (session 12345678) connected']);
      await client.listTools();
      assert.deepStrictEqual(lines, ['IDE tools: Qwen (session 12345678) connected', 'IDE tools: Qwen (session 12345678) listed the tools']);
      await client.close();
    } finally {
      await logged.close();
    }
  });

  for (const name of TOOL_NAMES) {
    it(`${name}: valid arguments reach the backend parsed; the result passes the client's output-schema check`, async () => {
      const client = await open(token);
      await client.listTools(); // the client validates structured results against the schemas it listed
      const result = await client.callTool({ name, arguments: args[name] });
      assert.ok(!result.isError, JSON.stringify(result));
      assert.deepStrictEqual(result.structuredContent, answers[name]);
      const text = (result.content as { type: string; text: string }[])[0];
      assert.deepStrictEqual(JSON.parse(text.text), answers[name]);
      assert.deepStrictEqual(backend.calls, [{ name, args: args[name] }]);
    });

    if (badArgs[name].length === 0) continue;
    it(`${name}: malformed arguments get an MCP error and never reach the backend`, async () => {
      const client = await open(token);
      for (const bad of badArgs[name]) {
        const result = await client.callTool({ name, arguments: bad }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
        assert.strictEqual(result.isError, true, `${JSON.stringify(bad)} -> ${JSON.stringify(result)}`);
      }
      assert.deepStrictEqual(backend.calls, []);
    });
  }

  it('a result that breaks its output schema is an error, not a malformed answer', async () => {
    backend.answer = () => ({ locations: [{ path: 7 }] });
    const client = await open(token);
    const result = await client.callTool({ name: 'definition', arguments: args.definition }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    assert.strictEqual(result.isError, true);
  });

  it('a failing backend gives an MCP error with its message; the server keeps answering', async () => {
    backend.answer = (name) => {
      if (name === 'hover') throw new Error('/elsewhere/x.ts is outside the session\'s folders');
      return answers[name];
    };
    const client = await open(token);
    const failed = await client.callTool({ name: 'hover', arguments: args.hover });
    assert.strictEqual(failed.isError, true);
    assert.match(JSON.stringify(failed.content), /outside the session's folders/);
    const ok = await client.callTool({ name: 'open_editors', arguments: {} });
    assert.ok(!ok.isError);
  });

  it("tells the grant's listener of every call: tool, arguments, time and answer size, or the error", async () => {
    const calls: IdeToolCall[] = [];
    const heard = server.grant('listened session', backend, (call) => calls.push(call));
    backend.answer = (name) => {
      if (name === 'hover') throw new Error('no hover here');
      return answers[name];
    };
    const client = await open(heard);
    await client.callTool({ name: 'diagnostics', arguments: args.diagnostics });
    await client.callTool({ name: 'hover', arguments: args.hover });
    assert.deepStrictEqual(calls.map((c) => [c.tool, c.args, c.error]), [['diagnostics', args.diagnostics, undefined], ['hover', args.hover, 'no hover here']]);
    assert.ok(calls.every((c) => c.ms >= 0));
    assert.strictEqual(calls[0].answerChars, JSON.stringify(answers.diagnostics).length);
    await client.callTool({ name: 'open_editors', arguments: {} }).catch(() => undefined);
    const other = await open(token);
    await other.callTool({ name: 'open_editors', arguments: {} });
    assert.strictEqual(calls.length, 3, "another token's calls are not heard");
  });

  it('a huge result is cut to the budget and says so', async () => {
    const diagnostic = { path: '/w/big.ts', range, severity: 'warning', message: 'm'.repeat(200) };
    backend.answer = () => ({ diagnostics: Array.from({ length: 5000 }, () => diagnostic) });
    const client = await open(token);
    await client.listTools();
    const result = await client.callTool({ name: 'diagnostics', arguments: {} });
    assert.ok(!result.isError);
    const content = result.structuredContent as { diagnostics: unknown[]; truncated?: string };
    assert.ok(content.diagnostics.length > 0 && content.diagnostics.length < 5000, `${content.diagnostics.length} shown`);
    assert.match(content.truncated ?? '', new RegExp(`showing ${content.diagnostics.length} of 5000 diagnostics`));
    assert.ok(JSON.stringify(content).length <= MAX_RESULT_CHARS);
  });

  it('a long string (a selection) is cut and the result says so', async () => {
    backend.answer = () => ({ path: '/w/a.ts', selections: [{ range, text: 'x'.repeat(100_000) }] });
    const client = await open(token);
    const result = await client.callTool({ name: 'selection', arguments: {} });
    const content = result.structuredContent as { selections: { text: string }[]; truncated?: string };
    assert.ok(content.selections[0].text.length < 30_000);
    assert.match(content.truncated ?? '', /cut at 20000 characters/);
  });

  it('refuses a request without a token, or with a wrong one (401)', async () => {
    await assert.rejects(open(undefined), /401|token/i);
    await assert.rejects(open('not-the-token'), /401|token/i);
    const response = await post(server, { authorization: 'Bearer nope' }, toolCall('diagnostics', {}));
    assert.strictEqual(response.status, 401);
    assert.strictEqual(response.headers.get('www-authenticate'), 'Bearer');
    assert.deepStrictEqual(backend.calls, []);
  });

  it("one session's token reaches only its own backend, and not another token's MCP session", async () => {
    const other = new StandIn();
    const otherToken = server.grant('other session', other);
    const mine = await open(token);
    await mine.callTool({ name: 'open_editors', arguments: {} });
    const theirs = await open(otherToken);
    await theirs.callTool({ name: 'selection', arguments: {} });
    assert.deepStrictEqual(backend.calls.map((c) => c.name), ['open_editors']);
    assert.deepStrictEqual(other.calls.map((c) => c.name), ['selection']);
    // My MCP session id, presented with the other session's token: as if it did not exist.
    const sessionId = (mine.transport as StreamableHTTPClientTransport).sessionId!;
    const response = await post(server, { authorization: `Bearer ${otherToken}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, toolCall('open_editors', {}));
    assert.strictEqual(response.status, 404);
    assert.deepStrictEqual(backend.calls.map((c) => c.name), ['open_editors']);
    assert.deepStrictEqual(other.calls.map((c) => c.name), ['selection']);
  });

  it('a revoked token stops at once, its open MCP sessions too; other tokens keep working', async () => {
    const other = new StandIn();
    const otherToken = server.grant('other session', other);
    const mine = await open(token);
    const theirs = await open(otherToken);
    await server.revoke(token);
    await assert.rejects(mine.callTool({ name: 'open_editors', arguments: {} }), /401|404|token|session/i);
    await assert.rejects(open(token), /401|token/i);
    assert.ok(!(await theirs.callTool({ name: 'open_editors', arguments: {} })).isError);
    assert.strictEqual(server.grantCount, 1);
  });

  it('refuses a request addressed to another host name (DNS rebinding), token or not', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(server.url);
      const req = http.request({ host: '127.0.0.1', port: url.port, path: '/mcp', method: 'POST', headers: { host: `rebind.example:${url.port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(toolCall('diagnostics', {}));
    });
    assert.strictEqual(status, 403);
    assert.deepStrictEqual(backend.calls, []);
  });

  it('answers junk requests with an HTTP error, never a crash', async () => {
    const auth = { authorization: `Bearer ${token}` };
    assert.strictEqual((await post(server, auth, '{not json')).status, 400);
    assert.strictEqual((await post(server, auth, JSON.stringify({ a: 'x'.repeat(1_100_000) }))).status, 413);
    assert.strictEqual((await fetch(server.url.replace('/mcp', '/other'), { headers: auth })).status, 404);
    assert.strictEqual((await fetch(server.url, { headers: auth })).status, 405);
    // A tools/call before initialize: refused by the SDK's transport.
    assert.ok((await post(server, auth, toolCall('diagnostics', {}))).status >= 400);
    const client = await open(token);
    assert.ok(!(await client.callTool({ name: 'diagnostics', arguments: {} })).isError, 'still serving');
  });

  describe('the stdio forwarder', () => {
    const forwarder = path.resolve(__dirname, '../../../src/host/ideTools/stdioForwarder.js');
    const spawnClient = async (env: Record<string, string>) => {
      const client = new Client({ name: 'ideTools-stdio-test', version: '1.0.0' });
      const transport = new StdioClientTransport({ command: process.execPath, args: [forwarder], env, stderr: 'pipe' });
      await client.connect(transport);
      clients.push(client);
      return client;
    };

    it('forwards every tool between stdio and the session\'s HTTP server', async () => {
      const client = await spawnClient({ [FORWARDER_ENV.url]: server.url, [FORWARDER_ENV.token]: token });
      const { tools } = await client.listTools();
      assert.deepStrictEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
      for (const name of TOOL_NAMES) {
        const result = await client.callTool({ name, arguments: args[name] });
        assert.deepStrictEqual(result.structuredContent, answers[name], name);
      }
      assert.deepStrictEqual(backend.calls.map((c) => c.name), TOOL_NAMES);
    });

    it('answers with an error (and does not hang) when its token is refused', async () => {
      await assert.rejects(spawnClient({ [FORWARDER_ENV.url]: server.url, [FORWARDER_ENV.token]: 'wrong' }), /did not answer|401|token/i);
      assert.deepStrictEqual(backend.calls, []);
    });

    it('refuses to forward anywhere but 127.0.0.1', async () => {
      await assert.rejects(spawnClient({ [FORWARDER_ENV.url]: 'http://example.com/mcp', [FORWARDER_ENV.token]: token }), /closed|exit|connection/i);
    });
  });
});
