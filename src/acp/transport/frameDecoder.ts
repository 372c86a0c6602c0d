// Byte stream -> message frames. NDJSON (LF or CRLF) by default; LSP-style `Content-Length`
// framing when the first bytes say so (ACP leaves framing to the implementation).
// Works on bytes, so a chunk boundary inside a multi-byte UTF-8 character is harmless:
// 0x0A never occurs inside a multi-byte sequence, and we only decode whole lines (the
// complete lines of a chunk in one go, then split as a string, as the benchmark floor does).

export type Framing = 'ndjson' | 'content-length';
/** 'message': the transport keeps message boundaries itself (WebSocket frames, SSE events); no byte framing. */
export type FramingOption = Framing | 'auto' | 'message';

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface FrameSink {
  /** One complete frame, decoded as UTF-8 (invalid bytes become U+FFFD). */
  frame(text: string): void;
  /** A frame exceeded the size limit; it is skipped and decoding resumes after it. */
  oversize(bytes: number, limit: number): void;
  /** A malformed Content-Length header block was skipped. */
  badHeader?(header: string): void;
  /** Called once, when auto-detection has decided. */
  framingDetected?(framing: Framing): void;
}

const LF = 0x0a;
const CR = 0x0d;
const CONTENT_LENGTH = 'content-length';
const HEADER_END = Buffer.from('\r\n\r\n');

export class FrameDecoder {
  private mode: Framing | 'detect';
  private readonly max: number;
  // NDJSON: the unfinished line, kept as a list of chunks to avoid re-copying.
  private parts: Buffer[] = [];
  private partsLength = 0;
  private discardingLine = false;
  // Content-Length: everything not yet consumed.
  private pending: Buffer = Buffer.alloc(0);
  private bodyLength = -1;
  private skipBytes = 0;

  constructor(private readonly sink: FrameSink, options: { framing?: Framing | 'auto'; maxMessageBytes?: number } = {}) {
    const framing = options.framing ?? 'auto';
    this.mode = framing === 'auto' ? 'detect' : framing;
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  push(chunk: Buffer): void {
    if (this.mode === 'detect') {
      this.detect(chunk);
      return;
    }
    if (this.mode === 'ndjson') this.pushLines(chunk);
    else this.pushContentLength(chunk);
  }

  /** Stream ended: a last line without a newline is still a frame. */
  end(): void {
    if (this.mode === 'ndjson' && this.partsLength > 0 && !this.discardingLine) {
      const line = Buffer.concat(this.parts, this.partsLength);
      this.parts = [];
      this.partsLength = 0;
      this.emit(line, 0, line.length);
    }
    if (this.mode === 'detect' && this.pending.length > 0) {
      this.decide('ndjson');
      this.end();
    }
  }

  private detect(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let i = 0;
    while (i < this.pending.length && isSpace(this.pending[i])) i++;
    const rest = this.pending.length - i;
    const probe = this.pending.toString('latin1', i, i + Math.min(rest, CONTENT_LENGTH.length)).toLowerCase();
    if (rest >= CONTENT_LENGTH.length || (rest > 0 && !CONTENT_LENGTH.startsWith(probe)) || this.pending.includes(LF)) {
      this.decide(probe === CONTENT_LENGTH ? 'content-length' : 'ndjson');
    }
  }

  private decide(framing: Framing): void {
    const buffered = this.pending;
    this.pending = Buffer.alloc(0);
    this.mode = framing;
    this.sink.framingDetected?.(framing);
    this.push(buffered);
  }

  private pushLines(chunk: Buffer): void {
    let start = 0;
    const length = chunk.length;
    const last = chunk.lastIndexOf(LF);
    while (start < length) {
      if (this.partsLength === 0 && !this.discardingLine) {
        // Fast path: every complete line left in this chunk decoded with one toString and
        // split as a string (no per-line decode). Same text as decoding line by line: LF
        // never occurs inside a multi-byte sequence and the decoder never swallows it, so
        // invalid bytes give the same U+FFFD either way. Only when no line here can exceed
        // the limit (the whole region fits), else the per-line loop below measures bytes.
        if (last < start) break;
        if (last - start <= this.max) {
          this.emitLines(chunk.toString('utf8', start, last));
          start = last + 1;
          break;
        }
      }
      const newline = chunk.indexOf(LF, start);
      if (newline === -1) break;
      if (this.discardingLine) {
        this.discardingLine = false;
      } else if (this.partsLength === 0) {
        const end = newline > start && chunk[newline - 1] === CR ? newline - 1 : newline;
        if (end - start > this.max) this.sink.oversize(end - start, this.max);
        else this.emit(chunk, start, end);
      } else {
        const total = this.partsLength + (newline - start);
        if (total > this.max) {
          this.sink.oversize(total, this.max);
        } else {
          this.parts.push(chunk.subarray(start, newline));
          const line = Buffer.concat(this.parts, total);
          const end = total > 0 && line[total - 1] === CR ? total - 1 : total;
          this.emit(line, 0, end);
        }
        this.parts = [];
        this.partsLength = 0;
      }
      start = newline + 1;
    }
    if (start >= length || this.discardingLine) return;
    // Keep the unfinished line; copy because the caller may reuse its buffer.
    const rest = Buffer.from(chunk.subarray(start));
    this.partsLength += rest.length;
    if (this.partsLength > this.max) {
      this.sink.oversize(this.partsLength, this.max);
      this.parts = [];
      this.partsLength = 0;
      this.discardingLine = true;
      return;
    }
    this.parts.push(rest);
  }

  /** `text`: whole lines separated by LF (no trailing LF); CR before LF is dropped, empty lines skipped. */
  private emitLines(text: string): void {
    const sink = this.sink;
    const length = text.length;
    let start = 0;
    while (start <= length) {
      let newline = text.indexOf('\n', start);
      if (newline === -1) newline = length;
      const end = newline > start && text.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
      if (end > start) sink.frame(start === 0 && end === length ? text : text.slice(start, end));
      start = newline + 1;
    }
  }

  private emit(buffer: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.sink.frame(buffer.toString('utf8', start, end));
  }

  private pushContentLength(chunk: Buffer): void {
    if (this.skipBytes > 0) {
      const skipped = Math.min(this.skipBytes, chunk.length);
      this.skipBytes -= skipped;
      chunk = chunk.subarray(skipped);
    }
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.bodyLength < 0) {
        let headerEnd = this.pending.indexOf(HEADER_END);
        let separator = 4;
        const lfOnly = this.pending.indexOf('\n\n');
        if (lfOnly !== -1 && (headerEnd === -1 || lfOnly < headerEnd)) {
          headerEnd = lfOnly;
          separator = 2;
        }
        if (headerEnd === -1) {
          if (this.pending.length > 8192) {
            this.sink.badHeader?.(this.pending.toString('latin1', 0, 200));
            this.pending = Buffer.alloc(0);
          }
          return;
        }
        const header = this.pending.toString('latin1', 0, headerEnd);
        this.pending = this.pending.subarray(headerEnd + separator);
        const length = parseContentLength(header);
        if (length === undefined) {
          this.sink.badHeader?.(header);
          continue;
        }
        if (length > this.max) {
          this.sink.oversize(length, this.max);
          const skipped = Math.min(length, this.pending.length);
          this.pending = this.pending.subarray(skipped);
          this.skipBytes = length - skipped;
          if (this.skipBytes > 0) return;
          continue;
        }
        this.bodyLength = length;
      }
      if (this.pending.length < this.bodyLength) return;
      const body = this.pending.toString('utf8', 0, this.bodyLength);
      this.pending = Buffer.from(this.pending.subarray(this.bodyLength));
      this.bodyLength = -1;
      if (body.length > 0) this.sink.frame(body);
    }
  }
}

function parseContentLength(header: string): number | undefined {
  for (const line of header.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    if (line.slice(0, colon).trim().toLowerCase() !== CONTENT_LENGTH) continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d+$/.test(value)) return undefined;
    return Number(value);
  }
  return undefined;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === LF || byte === CR;
}
