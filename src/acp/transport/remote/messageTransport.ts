// The common half of the remote transports: a pair of object-mode Node streams that carry whole
// messages, so AcpClientConnection (framing 'message') runs on them exactly as on an agent's stdio.
// Backpressure: when the connection's reader stops reading, `input` fills up and the transport
// pauses its source (the socket), so a fast agent waits instead of us queueing without bound.
import { Readable, Writable } from 'node:stream';
import type { Logger } from '../../logger';
import type { RemoteEndpoint } from './remoteEndpoint';
import type { RemoteConnectionError } from './remoteErrors';

export interface RemoteTransport {
  readonly endpoint: RemoteEndpoint;
  /** Whole messages from the agent (JSON text, or objects already parsed): AcpClientConnection's input. */
  readonly input: Readable;
  /** Whole messages to the agent (JSON text): AcpClientConnection's output. */
  readonly output: Writable;
  /** Settles once the transport is gone: undefined when it was closed on request, else why it ended (or never opened). */
  readonly closed: Promise<RemoteConnectionError | undefined>;
  close(): Promise<void>;
}

export interface MessageTransportOptions {
  logger: Logger;
  /** Told synchronously, before `input` ends, when the connection ends without being asked to. */
  onDrop?(error: RemoteConnectionError): void;
}

const INPUT_HIGH_WATER_MARK = 64;

export abstract class MessageTransport implements RemoteTransport {
  readonly input: Readable;
  readonly output: Writable;
  readonly closed: Promise<RemoteConnectionError | undefined>;
  private resolveClosed!: (error: RemoteConnectionError | undefined) => void;
  private ended = false;
  /** Set by the transport once the agent has answered: only then is an end a drop. */
  protected established = false;
  private closing: Promise<void> | undefined;

  constructor(
    readonly endpoint: RemoteEndpoint,
    protected readonly options: MessageTransportOptions,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.input = new Readable({ objectMode: true, highWaterMark: INPUT_HIGH_WATER_MARK, read: () => this.resumeSource() });
    this.output = new Writable({
      objectMode: true,
      write: (chunk: string, _encoding, callback) => {
        this.send(chunk).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      },
      // The connection ends its output when it closes: close the transport with it.
      final: (callback) => void this.close().finally(() => callback()),
    });
  }

  /** Closes the connection on request: no drop is reported. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.closeConnection();
      } catch (error) {
        this.options.logger.warn(`Closing the connection to ${this.endpoint.url.host} failed: ${String(error)}`);
      }
      this.finish(undefined);
    })();
    return this.closing;
  }

  /** A message from the agent. */
  protected deliver(message: string | object): void {
    if (this.ended) return;
    if (!this.input.push(message)) this.pauseSource();
  }

  /** The connection is gone; `error` says why unless it was closed on request. */
  protected finish(error: RemoteConnectionError | undefined): void {
    if (this.ended) return;
    this.ended = true;
    const dropped = this.closing ? undefined : error;
    this.resolveClosed(dropped);
    if (dropped && this.established) {
      this.options.logger.warn(dropped.message);
      this.options.onDrop?.(dropped);
    }
    this.input.push(null);
  }

  protected get isEnded(): boolean {
    return this.ended;
  }

  protected abstract send(text: string): Promise<void>;
  protected abstract pauseSource(): void;
  protected abstract resumeSource(): void;
  protected abstract closeConnection(): Promise<void>;
}
