import { StringDecoder } from 'string_decoder';

/*
 * An agent's stderr is its log. We keep the last lines in a fixed-size ring for crash banners
 * ("the agent exited: <last lines>") without letting a chatty agent grow memory without bound.
 */

/** A fixed-capacity FIFO of lines: pushing beyond capacity drops the oldest. */
export class LineRing {
  private readonly lines: string[] = [];
  private start = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`LineRing capacity must be a positive integer, got ${capacity}`);
  }

  push(line: string): void {
    if (this.lines.length < this.capacity) {
      this.lines.push(line);
      return;
    }
    this.lines[this.start] = line;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Oldest first. */
  toArray(): string[] {
    return [...this.lines.slice(this.start), ...this.lines.slice(0, this.start)];
  }
}

/**
 * Splits a byte stream into text lines (\n or \r\n), decoding UTF-8 across chunk boundaries. A line
 * longer than `maxLineLength` is cut into pieces so a stream without newlines cannot grow memory.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineLength = 8192,
  ) {}

  write(chunk: Buffer | string): void {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      this.emit(this.pending.slice(0, newline));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    while (this.pending.length > this.maxLineLength) {
      this.onLine(this.pending.slice(0, this.maxLineLength));
      this.pending = this.pending.slice(this.maxLineLength);
    }
  }

  /** Emits a final line without a newline, if any. */
  end(): void {
    this.pending += this.decoder.end();
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = '';
  }

  private emit(line: string): void {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    for (let i = 0; i < text.length; i += this.maxLineLength) this.onLine(text.slice(i, i + this.maxLineLength));
    if (text.length === 0) this.onLine('');
  }
}
