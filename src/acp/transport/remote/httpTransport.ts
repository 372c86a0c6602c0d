// ACP over Streamable HTTP, on the SDK's experimental client (`createHttpStream`): POST for what we
// send, SSE streams (one for the connection, one per session) for what the agent sends, the
// `Acp-Connection-Id` / `Acp-Session-Id` headers, 409 handling per session, DELETE on close.
// Why the SDK's client here: it hands over raw JSON-RPC messages (objects), so vscode-jsonrpc
// stays the engine, and the routing rules of the proposal are subtle enough that following the
// reference implementation beats a second one. What it lacks: backpressure (it queues whatever
// the SSE streams bring; our input stream pausing only stops us from taking more), and it reports
// malformed SSE events on console.warn, not to us; both are noted in the design notes.
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { MessageTransport, type MessageTransportOptions } from './messageTransport';
import type { RemoteEndpoint } from './remoteEndpoint';
import { classifyRemoteError } from './remoteErrors';

export interface HttpTransportOptions extends MessageTransportOptions {
  headers: Record<string, string>;
  maxMessageBytes: number;
}

type SdkStream = ReturnType<typeof createHttpStream>;
type SdkMessage = SdkStream extends { writable: WritableStream<infer M> } ? M : never;

const CLOSE_TIMEOUT_MS = 2000;

export class HttpTransport extends MessageTransport {
  private readonly writer: WritableStreamDefaultWriter<SdkMessage>;
  private readonly reader: ReadableStreamDefaultReader<SdkMessage>;
  private resumeReading: (() => void) | undefined;
  private paused = false;

  constructor(endpoint: RemoteEndpoint, options: HttpTransportOptions) {
    super(endpoint, options);
    // Cookies stay on (load balancers pin a connection with them); the SDK's store lives as long as the stream.
    const stream = createHttpStream(endpoint.url.href, { headers: options.headers, maxMessageBytes: options.maxMessageBytes });
    this.writer = stream.writable.getWriter();
    this.reader = stream.readable.getReader();
    this.writer.closed.catch(() => undefined);
    void this.pump();
  }

  protected async send(text: string): Promise<void> {
    if (this.isEnded) throw new Error(`The connection to ${this.endpoint.url.host} is closed`);
    try {
      await this.writer.write(JSON.parse(text) as SdkMessage);
    } catch (error) {
      // The SDK failed the whole stream (a 401, a network error): report it before the write error.
      this.finish(classifyRemoteError(this.endpoint.url.host, error, this.established));
      throw error;
    }
  }

  protected pauseSource(): void {
    this.paused = true;
  }

  protected resumeSource(): void {
    this.paused = false;
    this.resumeReading?.();
    this.resumeReading = undefined;
  }

  protected async closeConnection(): Promise<void> {
    // The SDK's close sends DELETE; a server that is gone must not hold us up.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.writer.close().catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    await this.reader.cancel().catch(() => undefined);
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        if (this.paused) await new Promise<void>((resolve) => (this.resumeReading = resolve));
        const { value, done } = await this.reader.read();
        if (done) break;
        // The first message is the answer to initialize: from here on an end is a lost connection.
        this.established = true;
        this.deliver(value);
      }
      this.finish(classifyRemoteError(this.endpoint.url.host, new Error('the server ended the stream'), this.established));
    } catch (error) {
      this.finish(classifyRemoteError(this.endpoint.url.host, error, this.established));
    }
  }
}
