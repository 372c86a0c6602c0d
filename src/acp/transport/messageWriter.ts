// MessageWriter for vscode-jsonrpc: one JSON object per line (or Content-Length framed
// when the agent turned out to speak that). Respects the pipe's backpressure.
import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-jsonrpc/node';
import type { Framing } from './frameDecoder';
import type { TraceRecorder } from './trace';

export class AcpMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private framing: Framing | 'message' = 'ndjson';
  private ended = false;
  private errorCount = 0;

  private readonly trace?: TraceRecorder;
  private readonly onSend?: (message: Message) => void;

  constructor(private readonly writable: Writable, options: { trace?: TraceRecorder; onSend?: (message: Message) => void } = {}) {
    super();
    this.trace = options.trace;
    this.onSend = options.onSend;
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  /** Switch framing (the reader tells us what the agent speaks). */
  setFraming(framing: Framing | 'message'): void {
    this.framing = framing;
  }

  write(message: Message): Promise<void> {
    if (this.ended || this.writable.destroyed || this.writable.writableEnded) {
      return Promise.reject(new Error('The agent connection is closed'));
    }
    this.onSend?.(message);
    this.trace?.record('send', message);
    const json = JSON.stringify(message);
    const data =
      this.framing === 'message' ? json : this.framing === 'ndjson' ? `${json}\n` : `Content-Length: ${Buffer.byteLength(json, 'utf8')}\r\n\r\n${json}`;
    return new Promise<void>((resolve, reject) => {
      try {
        const flushed = this.writable.write(data, 'utf8', (error) => {
          if (error) {
            this.errorCount++;
            this.fireError(error, message, this.errorCount);
            reject(error);
          } else if (flushed) {
            resolve();
          }
        });
        // Wait for 'drain' only when the pipe is full; otherwise resolve right away.
        if (!flushed) this.writable.once('drain', () => resolve());
        else resolve();
      } catch (error) {
        this.errorCount++;
        this.fireError(error, message, this.errorCount);
        reject(error);
      }
    });
  }

  end(): void {
    this.ended = true;
  }
}
