/**
 * The bounded output of an agent terminal (what terminal/output returns and the chat shows). Pure: no
 * `vscode`, no child processes; unit-tested in plain Node.
 *
 * The buffer keeps at most `limit` bytes of UTF-8. When more arrives it drops bytes from the start and then
 * moves the start forward to the next character boundary (a UTF-8 continuation byte is 10xxxxxx), so the
 * retained text is always valid and may be up to 3 bytes shorter than the limit, as the schema allows.
 */

/** When the agent gives no outputByteLimit. */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 1024 * 1024;
/** Never retain more than this per terminal, whatever the agent asks: memory stays bounded. */
export const MAX_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;

export function effectiveOutputLimit(requested: number | null | undefined): number {
  if (requested === null || requested === undefined || !Number.isFinite(requested) || requested < 0) {
    return DEFAULT_OUTPUT_BYTE_LIMIT;
  }
  return Math.min(Math.floor(requested), MAX_OUTPUT_BYTE_LIMIT);
}

const isContinuation = (b: number): boolean => (b & 0xc0) === 0x80;

export class TerminalOutputBuffer {
  private chunks: Buffer[] = [];
  private head = 0; // bytes of chunks[0] already dropped
  private total = 0; // retained bytes
  private cut = false;

  constructor(readonly limit: number) {}

  get truncated(): boolean {
    return this.cut;
  }

  get byteLength(): number {
    return this.total;
  }

  append(data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (bytes.length === 0) return;
    if (bytes.length >= this.limit) {
      // The new data alone fills the buffer: keep only its tail (copied, so a huge chunk is not pinned).
      this.chunks = this.limit > 0 ? [Buffer.from(bytes.subarray(bytes.length - this.limit))] : [];
      this.head = 0;
      this.total = this.limit;
      this.cut = true;
      this.alignStart();
      return;
    }
    this.chunks.push(bytes);
    this.total += bytes.length;
    if (this.total > this.limit) {
      this.drop(this.total - this.limit);
      this.cut = true;
      this.alignStart();
    }
  }

  toString(): string {
    if (this.chunks.length === 0) return '';
    const parts = this.chunks.slice();
    parts[0] = parts[0].subarray(this.head);
    return Buffer.concat(parts, this.total).toString('utf8');
  }

  private drop(n: number): void {
    while (n > 0 && this.chunks.length > 0) {
      const available = this.chunks[0].length - this.head;
      if (available <= n) {
        this.chunks.shift();
        this.head = 0;
        this.total -= available;
        n -= available;
      } else {
        this.head += n;
        this.total -= n;
        n = 0;
      }
    }
  }

  /** Skips continuation bytes at the start so the text begins on a character. */
  private alignStart(): void {
    while (this.chunks.length > 0) {
      const first = this.chunks[0];
      if (this.head >= first.length) {
        this.chunks.shift();
        this.head = 0;
        continue;
      }
      if (!isContinuation(first[this.head])) return;
      this.head++;
      this.total--;
    }
  }
}
