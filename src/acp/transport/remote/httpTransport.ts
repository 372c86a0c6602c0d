// ACP over Streamable HTTP, on the SDK's experimental client (`createHttpStream`): POST for what we
// send, SSE streams (one for the connection, one per session) for what the agent sends, the
// `Acp-Connection-Id` / `Acp-Session-Id` headers, 409 handling per session, DELETE on close.
// Why the SDK's client here: it hands over raw JSON-RPC messages (objects), so vscode-jsonrpc
// stays the engine, and the routing rules of the proposal are subtle enough that following the
// reference implementation beats a second one. What it lacks: backpressure (it queues whatever
// the SSE streams bring; our input stream pausing only stops us from taking more), and it reports
// malformed SSE events on console.warn, not to us; both are noted in the design notes.
// The SDK's server answers session/load on the connection's stream while the replay it sends first goes on
// the session's stream, and the two arrive in no set order: the answer is held until the session's stream
// has been quiet for a moment, so the replay is read as part of the load, never after it (a rebind would
// show it twice, a reopened session would see its tail as a new turn).
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
/** How long a session's stream must be quiet before its session/load answer is passed on, and the most it waits. */
const LOAD_SETTLE_MS = 150;
const LOAD_SETTLE_MAX_MS = 5000;

/** A session/load answer waiting for its replay: since when, and for which session. */
interface HeldAnswer {
  message: SdkMessage;
  sessionId: string;
  since: number;
}

type Read = Awaited<ReturnType<ReadableStreamDefaultReader<SdkMessage>['read']>>;
const SETTLED = Symbol('settled');

const idKey = (id: unknown): string | undefined => (typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined);

/** The session a message is about (a notification's or request's `params.sessionId`). */
function sessionOf(message: SdkMessage): string | undefined {
  const params = (message as { params?: { sessionId?: unknown } }).params;
  return typeof params?.sessionId === 'string' ? params.sessionId : undefined;
}

export class HttpTransport extends MessageTransport {
  private readonly writer: WritableStreamDefaultWriter<SdkMessage>;
  private readonly reader: ReadableStreamDefaultReader<SdkMessage>;
  private resumeReading: (() => void) | undefined;
  private paused = false;
  /** session/load requests in flight: their id's key → the session. */
  private readonly loads = new Map<string, string>();
  /** When each session's stream last brought a message. */
  private readonly heard = new Map<string, number>();
  private held: HeldAnswer[] = [];

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
    const message = JSON.parse(text) as SdkMessage;
    this.noteLoad(message);
    try {
      await this.writer.write(message);
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

  private noteLoad(message: SdkMessage): void {
    const { method, id } = message as { method?: unknown; id?: unknown };
    const key = idKey(id);
    const sessionId = sessionOf(message);
    if (method === 'session/load' && key && sessionId !== undefined) this.loads.set(key, sessionId);
  }

  private async pump(): Promise<void> {
    let next: Promise<Read> | undefined;
    try {
      for (;;) {
        if (this.paused) await new Promise<void>((resolve) => (this.resumeReading = resolve));
        next ??= this.reader.read();
        const result = this.held.length > 0 ? await this.raceSettle(next) : await next;
        if (result === SETTLED) {
          this.releaseSettled(false);
          continue;
        }
        next = undefined;
        if (result.done) break;
        // The first message is the answer to initialize: from here on an end is a lost connection.
        this.established = true;
        this.take(result.value);
      }
      this.releaseSettled(true);
      this.finish(classifyRemoteError(this.endpoint.url.host, new Error('the server ended the stream'), this.established));
    } catch (error) {
      this.releaseSettled(true);
      this.finish(classifyRemoteError(this.endpoint.url.host, error, this.established));
    }
  }

  private take(message: SdkMessage): void {
    const key = 'method' in message ? undefined : idKey((message as { id?: unknown }).id);
    const loading = key === undefined ? undefined : this.loads.get(key);
    if (key !== undefined && loading !== undefined) {
      this.loads.delete(key);
      this.held.push({ message, sessionId: loading, since: Date.now() });
      return;
    }
    const sessionId = sessionOf(message);
    if (sessionId !== undefined) this.heard.set(sessionId, Date.now());
    this.deliver(message);
  }

  /** The next message, or SETTLED once the first held answer may go. */
  private async raceSettle(next: Promise<Read>): Promise<Read | typeof SETTLED> {
    const now = Date.now();
    const wait = Math.min(...this.held.map((h) => this.settlesAt(h) - now));
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([next, new Promise<typeof SETTLED>((resolve) => (timer = setTimeout(() => resolve(SETTLED), Math.max(0, wait))))]);
    } finally {
      clearTimeout(timer);
    }
  }

  private settlesAt(h: HeldAnswer): number {
    const quietFrom = Math.max(h.since, this.heard.get(h.sessionId) ?? 0);
    return Math.min(quietFrom + LOAD_SETTLE_MS, h.since + LOAD_SETTLE_MAX_MS);
  }

  /** Passes on the held answers whose session has gone quiet (all of them when the stream ends). */
  private releaseSettled(all: boolean): void {
    const now = Date.now();
    const ready = this.held.filter((h) => all || this.settlesAt(h) <= now);
    this.held = this.held.filter((h) => !ready.includes(h));
    for (const h of ready) this.deliver(h.message);
  }
}
