// URL checks and the credentials policy of remote agents, and the WebSocket transport's backpressure.
import * as assert from 'assert';
import * as net from 'node:net';
import { WebSocketServer } from 'ws';
import {
  assertCredentialsAllowed,
  connectRemoteTransport,
  isCredentialHeader,
  isLoopbackHost,
  parseRemoteUrl,
  RemoteConnectionError,
} from '../../../../src/acp';
import { capturingLogger } from '../helpers';

describe('remote endpoint: URLs', () => {
  it('http and https are Streamable HTTP, ws and wss WebSocket', () => {
    for (const [url, protocol, secure] of [
      ['http://127.0.0.1:8080/acp', 'http', false],
      ['https://agents.example.com/acp', 'http', true],
      ['ws://localhost/acp', 'websocket', false],
      ['wss://agents.example.com/acp', 'websocket', true],
    ] as const) {
      const endpoint = parseRemoteUrl(url);
      assert.deepStrictEqual([endpoint.protocol, endpoint.secure], [protocol, secure], url);
    }
  });

  it('other schemes, garbage and user:password in the URL are refused', () => {
    assert.throws(() => parseRemoteUrl('ftp://x/acp'), /"ftp:" URLs are not supported; use http, https, ws or wss/);
    assert.throws(() => parseRemoteUrl('not a url'), /is not a valid URL/);
    assert.throws(() => parseRemoteUrl('https://me:pw@x/acp'), (e: unknown) => e instanceof RemoteConnectionError && e.kind === 'insecure');
  });

  it('loopback: localhost, 127.0.0.0/8, ::1 and IPv4-mapped loopback; nothing else', () => {
    for (const host of ['localhost', 'LOCALHOST', 'agent.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackHost(host), host);
    for (const host of ['192.0.2.1', '10.0.0.1', 'example.com', 'localhost.example.com', '127.0.0.1.example.com', '0.0.0.0', '[::]', '128.0.0.1']) {
      assert.ok(!isLoopbackHost(host), host);
    }
  });

  it('credential headers by name', () => {
    for (const name of ['Authorization', 'proxy-authorization', 'Cookie', 'X-Api-Key', 'api_key', 'X-Auth-Token', 'X-Secret']) assert.ok(isCredentialHeader(name), name);
    for (const name of ['X-Team', 'Accept-Language', 'User-Agent']) assert.ok(!isCredentialHeader(name), name);
  });

  it('credentials over plain http/ws are refused except to loopback; https/wss always go', () => {
    const refused = (url: string) =>
      assert.throws(
        () => assertCredentialsAllowed(parseRemoteUrl(url), ['Authorization']),
        (e: unknown) =>
          e instanceof RemoteConnectionError &&
          e.kind === 'insecure' &&
          /^Refused to send credentials \("Authorization"\) over plain (http|ws) to 192\.0\.2\.1(:\d+)?: .*Use (https|wss):\/\//.test(e.message),
      );
    refused('http://192.0.2.1/acp');
    refused('ws://192.0.2.1:9000/acp');
    for (const url of ['http://127.0.0.1/acp', 'ws://localhost:1/acp', 'https://192.0.2.1/acp', 'wss://192.0.2.1/acp']) {
      assertCredentialsAllowed(parseRemoteUrl(url), ['Authorization']);
    }
    // No credentials: plain http to another host is the user's call.
    assertCredentialsAllowed(parseRemoteUrl('http://192.0.2.1/acp'), []);
  });

  it('the refusal happens before any connection is attempted', async () => {
    const connects: unknown[] = [];
    const originalConnect = net.Socket.prototype.connect;
    const originalFetch = globalThis.fetch;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      connects.push(args[0]);
      return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof originalConnect;
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
      connects.push(args[0]);
      return originalFetch(...args);
    }) as typeof fetch;
    try {
      for (const url of ['http://192.0.2.1/acp', 'ws://192.0.2.1/acp']) {
        await assert.rejects(
          connectRemoteTransport({ url, headers: { 'X-Api-Key': 'k' }, logger: capturingLogger() }),
          (e: unknown) => e instanceof RemoteConnectionError && e.kind === 'insecure',
        );
        // Headers filled from secret storage count as credentials whatever their names.
        await assert.rejects(
          connectRemoteTransport({ url, headers: { 'X-Team': 't' }, secretHeaders: ['x-team'], logger: capturingLogger() }),
          (e: unknown) => e instanceof RemoteConnectionError && e.kind === 'insecure',
        );
      }
    } finally {
      net.Socket.prototype.connect = originalConnect;
      globalThis.fetch = originalFetch;
    }
    assert.deepStrictEqual(connects, []);
  });
});

describe('remote transport: WebSocket backpressure', function () {
  this.timeout(20_000);

  it('while nobody reads, the socket is paused instead of queueing every frame', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const port = (wss.address() as net.AddressInfo).port;
    // 400 frames of 64 KiB (25 MiB): far more than the socket buffers hold.
    const total = 400;
    const padding = 'x'.repeat(64 * 1024);
    wss.on('connection', (socket) => {
      for (let i = 0; i < total; i++) socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { i, padding } }));
    });
    const transport = await connectRemoteTransport({ url: `ws://127.0.0.1:${port}/`, headers: {}, logger: capturingLogger() });
    try {
      await waitUntil(() => transport.input.readableLength >= 64);
      // Many turns of the event loop with I/O: a socket that was not paused would keep filling the buffer.
      for (let i = 0; i < 200; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        assert.ok(transport.input.readableLength <= 80, `${transport.input.readableLength} frames buffered`);
      }
      let received = 0;
      transport.input.on('data', () => received++);
      await waitUntil(() => received === total);
    } finally {
      await transport.close();
      wss.close();
    }
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
