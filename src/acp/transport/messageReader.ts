// NDJSON (or Content-Length) MessageReader for vscode-jsonrpc with a lean hot path.
//
// Why not just vscode-jsonrpc's reader: it dispatches every message in its own
// setImmediate and never pushes back. `session/update` is >99% of the traffic, so those
// are intercepted here and delivered synchronously ("lean dispatch"). Everything else goes
// to vscode-jsonrpc, and the ORDER stays as sent: after handing it a message we hold
// later messages (pausing the stream) until it has dispatched that one, so a
// `session/prompt` result can never overtake the updates that preceded it, and no update
// can overtake a request that preceded it.
import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import { DEFAULT_MAX_MESSAGE_BYTES, FrameDecoder, type Framing, type FramingOption } from './frameDecoder';
import { classifyEnvelope, type NotificationEnvelope } from './jsonRpcMessage';
import type { TraceRecorder } from './trace';
import type { Logger } from '../logger';

export type FastNotificationHandler = (params: unknown) => void;

export interface AcpMessageReaderOptions {
  logger: Logger;
  framing?: FramingOption;
  maxMessageBytes?: number;
  trace?: TraceRecorder;
  /** Told once the framing of the incoming stream is known (the writer follows it). */
  onFramingDetected?: (framing: Framing | 'message') => void;
  /** Asked for every response; false drops it (e.g. an id we never sent). */
  acceptResponse?: (id: string | number | null) => boolean;
}

const LOG_PREVIEW = 200;

export class AcpMessageReader extends AbstractMessageReader {
  private readonly decoder: FrameDecoder;
  /** Framing 'message': each chunk of the readable is one whole message (remote transports). */
  private readonly wholeMessages: boolean;
  private readonly fastPath = new Map<string, FastNotificationHandler>();
  private callback: DataCallback | undefined;
  /** Messages waiting for vscode-jsonrpc to dispatch the one before them. */
  private held: Array<{ kind: 'request' | 'notification' | 'response'; message: Message }> = [];
  private barrier = false;
  private paused = false;
  private closed = false;
  private readonly listeners: Array<[string, (...args: unknown[]) => void]> = [];

  constructor(private readonly readable: Readable, private readonly options: AcpMessageReaderOptions) {
    super();
    this.decoder = new FrameDecoder(
      {
        frame: (text) => this.onFrame(text),
        oversize: (bytes, limit) => {
          const error = new Error(`ACP message of ${bytes} bytes exceeds the ${limit}-byte limit; skipped`);
          this.options.logger.error(error.message);
          this.fireError(error);
        },
        badHeader: (header) => this.options.logger.warn(`Skipped a malformed Content-Length header: ${preview(header)}`),
        framingDetected: (framing) => {
          if (framing !== 'ndjson') this.options.logger.info(`Agent uses ${framing} framing`);
          this.options.onFramingDetected?.(framing);
        },
      },
      { framing: options.framing === 'message' ? undefined : options.framing, maxMessageBytes: options.maxMessageBytes },
    );
    this.wholeMessages = options.framing === 'message';
    if (this.wholeMessages) options.onFramingDetected?.('message');
  }

  /** Notifications of this method bypass vscode-jsonrpc and go straight to `handler`. */
  setFastPath(method: string, handler: FastNotificationHandler): void {
    this.fastPath.set(method, handler);
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    this.on('data', (chunk: Buffer | string | object) => {
      try {
        if (this.wholeMessages) this.onWholeMessage(chunk);
        else this.decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer));
      } catch (error) {
        // Decoding never throws on bad input; this guards against a throwing handler.
        this.options.logger.error(`ACP reader failed on a chunk: ${String(error)}`);
      }
    });
    this.on('end', () => this.finish());
    this.on('close', () => this.finish());
    this.on('error', (error: Error) => {
      this.fireError(error);
      this.finish();
    });
    return { dispose: () => this.detach() };
  }

  override dispose(): void {
    this.detach();
    super.dispose();
  }

  private on<A extends unknown[]>(event: string, listener: (...args: A) => void): void {
    const untyped = listener as (...args: unknown[]) => void;
    this.readable.on(event, untyped);
    this.listeners.push([event, untyped]);
  }

  private detach(): void {
    for (const [event, listener] of this.listeners) this.readable.off(event, listener);
    this.listeners.length = 0;
  }

  private finish(): void {
    if (this.closed) return;
    this.decoder.end();
    this.closed = true;
    // Let held messages drain first so a final response still arrives before close.
    if (this.held.length === 0 && !this.barrier) this.fireClose();
  }

  /** A remote transport hands over JSON text, or a message its own parser already decoded. */
  private onWholeMessage(chunk: Buffer | string | object): void {
    if (typeof chunk === 'object' && !Buffer.isBuffer(chunk)) {
      this.onValue(chunk, undefined);
      return;
    }
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const limit = this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    // UTF-16 length bounds the UTF-8 size from below; measure bytes only when it might matter.
    if (text.length > limit / 3 && Buffer.byteLength(text, 'utf8') > limit) {
      const error = new Error(`ACP message of ${Buffer.byteLength(text, 'utf8')} bytes exceeds the ${limit}-byte limit; skipped`);
      this.options.logger.error(error.message);
      this.fireError(error);
      return;
    }
    this.onFrame(text);
  }

  private onFrame(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim().length > 0) {
        this.options.logger.warn(`Agent wrote a non-JSON ${this.wholeMessages ? 'message' : 'line on stdout'} (skipped): ${preview(text)}`);
      }
      return;
    }
    this.onValue(value, text);
  }

  /** `text`: the message as received, for the log (undefined when it arrived already parsed). */
  private onValue(value: unknown, text: string | undefined): void {
    const kind = classifyEnvelope(value);
    if (kind === undefined) {
      this.options.logger.warn(`Skipped a message that is not JSON-RPC 2.0: ${preview(text ?? JSON.stringify(value))}`);
      return;
    }
    this.options.trace?.record('receive', value);
    if (kind === 'response' && this.options.acceptResponse && !this.options.acceptResponse((value as { id: string | number | null }).id)) return;
    const message = value as Message;
    if (this.barrier) {
      this.held.push({ kind, message });
      this.pause();
      return;
    }
    this.dispatch(kind, message);
  }

  private dispatch(kind: 'request' | 'notification' | 'response', message: Message): void {
    if (kind === 'notification') {
      const handler = this.fastPath.get((message as NotificationEnvelope).method);
      if (handler) {
        try {
          handler((message as NotificationEnvelope).params);
        } catch (error) {
          this.options.logger.error(`Handler for ${(message as NotificationEnvelope).method} threw: ${String(error)}`);
        }
        return;
      }
    }
    this.callback?.(message);
    // vscode-jsonrpc dispatches it in its next setImmediate; ours, queued after, runs
    // once it has (and after the microtasks that settle the matching request promise).
    this.barrier = true;
    setImmediate(() => this.releaseBarrier());
  }

  private releaseBarrier(): void {
    this.barrier = false;
    while (!this.barrier && this.held.length > 0) {
      const next = this.held.shift()!;
      this.dispatch(next.kind, next.message);
    }
    if (this.held.length === 0) {
      this.resume();
      if (this.closed && !this.barrier) this.fireClose();
    }
  }

  // Backpressure: while messages are held, stop reading so the agent's pipe fills up
  // and the agent blocks, instead of us queueing without bound.
  private pause(): void {
    if (!this.paused && !this.closed) {
      this.paused = true;
      this.readable.pause();
    }
  }

  private resume(): void {
    if (this.paused) {
      this.paused = false;
      if (!this.closed) this.readable.resume();
    }
  }
}

function preview(text: string): string {
  return text.length > LOG_PREVIEW ? `${text.slice(0, LOG_PREVIEW)}… (${text.length} chars)` : text;
}
