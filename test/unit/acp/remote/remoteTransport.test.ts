// The remote transports against the SDK's experimental server (test/fixtures/remote/acp-server.mjs)
// hosting our fake agent and the SDK-built peer on 127.0.0.1: whole turns over Streamable HTTP and
// WebSocket, a 401, a URL that does not answer, malformed frames, the server killed mid-turn.
import * as assert from 'assert';
import * as net from 'node:net';
import {
  AcpClientConnection,
  connectRemoteTransport,
  ConnectionClosedError,
  RemoteConnectionError,
  type RemoteTransport,
  type TraceEvent,
} from '../../../../src/acp';
import { capturingLogger, CLIENT_INFO, text, type CapturingLogger } from '../helpers';
import { validateSent } from '../schemaValidator';
import { startAcpServer, type AcpTestServer } from '../../../fixtures/remote/acpServer';

interface Client {
  transport: RemoteTransport;
  conn: AcpClientConnection;
  logger: CapturingLogger;
  trace: TraceEvent[];
  drops: RemoteConnectionError[];
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const logger = capturingLogger();
  const drops: RemoteConnectionError[] = [];
  const trace: TraceEvent[] = [];
  const transport = await connectRemoteTransport({ url, headers, logger, onDrop: (e) => drops.push(e) });
  const conn = new AcpClientConnection(transport.input, transport.output, { framing: 'message', logger, trace: (e) => trace.push(e) });
  return { transport, conn, logger, trace, drops };
}

/** The message chunks of the session's updates so far, joined. */
function collectText(conn: AcpClientConnection): () => string {
  let out = '';
  conn.onSessionUpdate((n) => {
    const u = n.update as { sessionUpdate: string; content?: { type: string; text?: string } };
    if (u.sessionUpdate === 'agent_message_chunk' && u.content?.type === 'text') out += u.content.text ?? '';
  });
  return () => out;
}

for (const kind of ['http', 'ws'] as const) {
  describe(`remote transport over ${kind === 'http' ? 'Streamable HTTP' : 'WebSocket'}`, function () {
    this.timeout(30_000);
    const servers: AcpTestServer[] = [];
    const clients: Client[] = [];
    const server = async (options: string[] = [], agentArgs: string[] = []) => {
      const s = await startAcpServer(options, agentArgs);
      servers.push(s);
      return s;
    };
    const client = async (url: string, headers?: Record<string, string>) => {
      const c = await connect(url, headers);
      clients.push(c);
      return c;
    };

    afterEach(async () => {
      for (const c of clients.splice(0)) {
        c.conn.close();
        await c.transport.close();
      }
      for (const s of servers.splice(0)) await s.kill();
    });

    it('a whole turn with the fake agent: streaming, a permission, fs requests answered on our side', async () => {
      const s = await server();
      const c = await client(s[kind]);
      const files = new Map([['/w/a.txt', 'hello']]);
      c.conn.handle('fs/read_text_file', (p) => ({ content: files.get(p.path) ?? '' }));
      c.conn.handle('fs/write_text_file', (p) => void files.set(p.path, p.content));
      c.conn.handle('session/request_permission', (p) => ({ outcome: { outcome: 'selected', optionId: p.options[0].optionId } }));
      const init = await c.conn.initialize({ clientInfo: CLIENT_INFO });
      assert.strictEqual(init.agentInfo?.name, 'fake-agent');
      const { sessionId } = await c.conn.newSession({ cwd: '/w' });
      const said = collectText(c.conn);
      assert.strictEqual((await c.conn.prompt(sessionId, [text('hello remote')])).stopReason, 'end_turn');
      assert.strictEqual(said(), 'echo: hello remote');
      assert.strictEqual((await c.conn.prompt(sessionId, [text('fs /w/a.txt')])).stopReason, 'end_turn');
      assert.strictEqual(files.get('/w/a.txt.out'), 'HELLO');
      assert.strictEqual((await c.conn.prompt(sessionId, [text('permission')])).stopReason, 'end_turn');
      assert.deepStrictEqual(validateSent(c.trace), []);
      assert.deepStrictEqual(c.drops, []);
      c.conn.close();
      assert.strictEqual(await c.transport.closed, undefined, 'a requested close is not a failure');
      assert.deepStrictEqual(c.drops, []);
    });

    it('a whole turn with the agent built on the SDK, and session/load on a new connection', async () => {
      const s = await server(['--agent=sdk', '--shared-agent']);
      const first = await client(s[kind]);
      await first.conn.initialize({ clientInfo: CLIENT_INFO });
      const { sessionId } = await first.conn.newSession({ cwd: '/w' });
      const said = collectText(first.conn);
      assert.strictEqual((await first.conn.prompt(sessionId, [text('over the wire')])).stopReason, 'end_turn');
      assert.match(said(), /sdk: over the wire/);
      first.conn.close();
      await first.transport.closed;
      const second = await client(s[kind]);
      const init = await second.conn.initialize({ clientInfo: CLIENT_INFO });
      assert.ok(init.agentCapabilities.loadSession);
      const replayed = collectText(second.conn);
      await second.conn.loadSession(sessionId, { cwd: '/w' });
      assert.match(replayed(), /sdk: over the wire/);
    });

    if (kind === 'http') {
      it("session/load: the replay on the session's stream is read before the answer that overtook it on the connection's stream", async () => {
        const s = await server(['--agent=sdk', '--shared-agent', '--slow-session-stream=20']);
        const first = await client(s.http);
        await first.conn.initialize({ clientInfo: CLIENT_INFO });
        const { sessionId } = await first.conn.newSession({ cwd: '/w' });
        await first.conn.prompt(sessionId, [text('said before the reconnect')]);
        first.conn.close();
        await first.transport.closed;
        const second = await client(s.http);
        await second.conn.initialize({ clientInfo: CLIENT_INFO });
        const replayed = collectText(second.conn);
        await second.conn.loadSession(sessionId, { cwd: '/w' });
        assert.match(replayed(), /sdk: said before the reconnect/);
        // An answer that is an error is held the same way and still arrives.
        await assert.rejects(second.conn.loadSession('no-such-session', { cwd: '/w' }));
      });
    }

    it('credentials: the right bearer token connects; a wrong or missing one is a 401 with a clear message', async () => {
      const s = await server(['--token=sesame']);
      const ok = await client(s[kind], { Authorization: 'Bearer sesame' });
      await ok.conn.initialize({ clientInfo: CLIENT_INFO });
      for (const headers of [{ Authorization: 'Bearer wrong' }, {}] as Record<string, string>[]) {
        const error = await failToInitialize(s[kind], headers);
        assert.strictEqual(error.kind, 'unauthorized');
        assert.strictEqual(error.status, 401);
        assert.match(error.message, /refused the credentials \(HTTP 401.*a valid bearer token is required/);
      }
    });

    it('a URL that does not answer fails with a clear message', async () => {
      const port = await closedPort();
      const error = await failToInitialize(`${kind}://127.0.0.1:${port}/acp`);
      assert.strictEqual(error.kind, 'unreachable');
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port} does not answer \\(ECONNREFUSED\\)`));
    });

    it('malformed frames are logged and skipped; the turn completes', async () => {
      const s = await server(['--malformed']);
      const c = await client(s[kind]);
      await c.conn.initialize({ clientInfo: CLIENT_INFO });
      const { sessionId } = await c.conn.newSession({ cwd: '/w' });
      const said = collectText(c.conn);
      assert.strictEqual((await c.conn.prompt(sessionId, [text('still works')])).stopReason, 'end_turn');
      assert.strictEqual(said(), 'echo: still works');
      // The SDK's HTTP client drops unparsable SSE events itself; what reaches us is logged.
      const warnings = c.logger.lines.filter((l) => l.startsWith('warn'));
      assert.ok(warnings.some((l) => /not JSON-RPC 2\.0: \{"jsonrpc":"2\.0","id":\{"x":1\}/.test(l)), warnings.join('\n'));
      if (kind === 'ws') {
        assert.ok(warnings.some((l) => /non-JSON message \(skipped\): this is not json/.test(l)), warnings.join('\n'));
        assert.ok(warnings.some((l) => /binary WebSocket frame/.test(l)), warnings.join('\n'));
      }
      assert.deepStrictEqual(c.drops, []);
    });

    it('the server killed mid-turn: the drop is reported once, the turn fails, the transport says why', async () => {
      const s = await server();
      const c = await client(s[kind]);
      await c.conn.initialize({ clientInfo: CLIENT_INFO });
      const { sessionId } = await c.conn.newSession({ cwd: '/w' });
      const started = new Promise<void>((resolve) => c.conn.onSessionUpdate(() => resolve()));
      const turn = c.conn.prompt(sessionId, [text('never-cancel')]);
      turn.catch(() => undefined);
      await started;
      await s.kill();
      await assert.rejects(turn, ConnectionClosedError);
      const reason = await c.transport.closed;
      assert.ok(reason instanceof RemoteConnectionError);
      assert.strictEqual(reason.kind, 'lost');
      assert.match(reason.message, /^Lost the connection to 127\.0\.0\.1:\d+ \(/);
      assert.deepStrictEqual(c.drops, [reason]);
    });
  });
}

describe('remote transport: WebSocket specifics', function () {
  this.timeout(20_000);

  it('an upgrade that never completes times out with a clear message', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      await assert.rejects(
        connectRemoteTransport({ url: `ws://127.0.0.1:${port}/acp`, headers: {}, logger: capturingLogger(), connectTimeoutMs: 300 }),
        (e: unknown) => e instanceof RemoteConnectionError && e.kind === 'timeout' && /did not complete the WebSocket handshake/.test(e.message),
      );
    } finally {
      silent.close();
    }
  });

  it('an upgrade answered 404 says the URL is not an ACP agent', async () => {
    const http = await import('node:http');
    const plain = http.createServer((_req, res) => res.writeHead(404).end('no such page'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as net.AddressInfo).port;
    try {
      await assert.rejects(
        connectRemoteTransport({ url: `ws://127.0.0.1:${port}/acp`, headers: {}, logger: capturingLogger() }),
        (e: unknown) => e instanceof RemoteConnectionError && e.kind === 'rejected' && /answered HTTP 404 Not Found: no such page; is this the URL of an ACP agent\?/.test(e.message),
      );
    } finally {
      plain.close();
    }
  });
});

async function failToInitialize(url: string, headers: Record<string, string> = {}): Promise<RemoteConnectionError> {
  let transport: RemoteTransport;
  try {
    transport = await connectRemoteTransport({ url, headers, logger: capturingLogger() });
  } catch (error) {
    assert.ok(error instanceof RemoteConnectionError, String(error));
    return error;
  }
  // Streamable HTTP connects with the initialize POST: the failure shows there, and the transport says why.
  const conn = new AcpClientConnection(transport.input, transport.output, { framing: 'message' });
  await assert.rejects(conn.initialize({ clientInfo: CLIENT_INFO }));
  const reason = await transport.closed;
  conn.close();
  assert.ok(reason instanceof RemoteConnectionError, String(reason));
  return reason;
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
