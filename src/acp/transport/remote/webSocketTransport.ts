// ACP over WebSocket: one JSON-RPC message per text frame, both ways (the ACP remote transport
// proposal; what the SDK's experimental server speaks on an upgrade).
//
// Why our own client on `ws` rather than the SDK's experimental ws-client: that one feeds an
// unbounded WHATWG ReadableStream (no backpressure towards the socket), answers a malformed
// frame by sending -32700 to the agent and reports nothing to us (or to console.warn), and
// hides the HTTP status of a refused upgrade. `ws` gives status codes, pause/resume and ping.
// Node 20 has no global WebSocket client, hence the `ws` package.
import WebSocket from 'ws';
import { MessageTransport, type MessageTransportOptions } from './messageTransport';
import type { RemoteEndpoint } from './remoteEndpoint';
import { classifyRemoteError, describeCloseCode, errorForStatus, RemoteConnectionError } from './remoteErrors';

export interface WebSocketTransportOptions extends MessageTransportOptions {
  headers: Record<string, string>;
  connectTimeoutMs: number;
  maxMessageBytes: number;
  /** A silent connection is pinged this often; no pong by the next ping means it is dead. */
  pingIntervalMs?: number;
}

const DEFAULT_PING_INTERVAL_MS = 30_000;
const MAX_ERROR_BODY = 2048;

export class WebSocketTransport extends MessageTransport {
  private readonly socket: WebSocket;
  private readonly opened: Promise<void>;
  private isOpen = false;
  private pingTimer: NodeJS.Timeout | undefined;
  private awaitingPong = false;
  /** A failure seen before 'close' (the close event itself carries only a code). */
  private failure: RemoteConnectionError | undefined;

  /** Connects; resolves once the upgrade succeeded, rejects with a RemoteConnectionError. */
  static async connect(endpoint: RemoteEndpoint, options: WebSocketTransportOptions): Promise<WebSocketTransport> {
    const transport = new WebSocketTransport(endpoint, options);
    await transport.opened;
    return transport;
  }

  private constructor(endpoint: RemoteEndpoint, private readonly ws: WebSocketTransportOptions) {
    super(endpoint, ws);
    const where = endpoint.url.host;
    this.socket = new WebSocket(endpoint.url, {
      headers: ws.headers,
      handshakeTimeout: ws.connectTimeoutMs,
      maxPayload: ws.maxMessageBytes,
      followRedirects: false,
    });
    this.opened = new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => {
        this.isOpen = true;
        this.established = true;
        this.startPing();
        resolve();
      });
      this.socket.once('unexpected-response', (request, response) => {
        // The upgrade was answered with a plain HTTP response: keep a little of its body for the message.
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > MAX_ERROR_BODY) response.destroy();
        });
        const done = () => {
          this.failure = errorForStatus(where, response.statusCode ?? 0, response.statusMessage ?? '', body.slice(0, MAX_ERROR_BODY));
          request.destroy();
          reject(this.failure);
          this.finish(this.failure);
        };
        response.once('end', done);
        response.once('close', done);
      });
      this.socket.on('error', (error: Error) => {
        const classified = /handshake has timed out/i.test(error.message)
          ? new RemoteConnectionError('timeout', `${where} did not complete the WebSocket handshake in ${ws.connectTimeoutMs / 1000} s.`)
          : classifyRemoteError(where, error, this.isOpen);
        this.failure ??= classified;
        if (!this.isOpen) reject(this.failure);
      });
    });
    this.opened.catch(() => undefined);
    this.socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      this.awaitingPong = false;
      if (isBinary) {
        this.options.logger.warn(`${where} sent a binary WebSocket frame; ACP uses text frames (skipped)`);
        return;
      }
      this.deliver(rawText(data));
    });
    this.socket.on('pong', () => (this.awaitingPong = false));
    this.socket.on('close', (code: number, reason: Buffer) => {
      this.stopPing();
      this.finish(this.failure ?? new RemoteConnectionError('lost', `Lost the connection to ${where} (${describeCloseCode(code, reason.toString('utf8'))}).`));
    });
  }

  protected send(text: string): Promise<void> {
    if (this.isEnded || this.socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new Error(`The connection to ${this.endpoint.url.host} is closed`));
    }
    return new Promise((resolve, reject) => this.socket.send(text, (error) => (error ? reject(error) : resolve())));
  }

  protected pauseSource(): void {
    this.socket.pause();
  }

  protected resumeSource(): void {
    if (this.socket.isPaused) this.socket.resume();
  }

  protected async closeConnection(): Promise<void> {
    this.stopPing();
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
    else this.socket.close(1000, 'client closed');
    // A server that never answers the close handshake must not hold us up.
    const timer = setTimeout(() => this.socket.terminate(), 2000);
    await closed;
    clearTimeout(timer);
  }

  private startPing(): void {
    this.pingTimer = setInterval(() => {
      if (this.awaitingPong) {
        this.failure ??= new RemoteConnectionError('lost', `Lost the connection to ${this.endpoint.url.host} (no answer to a ping).`);
        this.socket.terminate();
        return;
      }
      this.awaitingPong = true;
      this.socket.ping();
    }, this.ws.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
