/**
 * The bounded output of an agent terminal (what terminal/output returns and the chat shows), and a streaming
 * ANSI stripper. Pure: no `vscode`, no child processes; unit-tested in plain Node.
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

const ESC = 0x1b;
const BEL = 0x07;
const CSI8 = 0x9b;
const MAX_STRING = 8192; // longest OSC / DCS string we treat as one sequence
const MAX_CARRY = 4096;
const INCOMPLETE = -1;

/**
 * Where the escape sequence or control character at `i` ends (exclusive), or INCOMPLETE when the text ends
 * inside it. Recognises CSI (ESC [ or 0x9b, params, intermediates, final), OSC / DCS / SOS / PM / APC strings
 * ended by BEL or ESC \, charset designations (ESC ( B) and the other two-byte escapes (ESC 7, ESC =).
 * Used on the tail of each chunk only, to hold back a sequence the next chunk completes.
 */
function sequenceEnd(s: string, i: number): number {
  const n = s.length;
  const c = s.charCodeAt(i);
  if (c !== ESC && c !== CSI8) return i + 1; // a lone control character
  if (c === CSI8) return csiEnd(s, i + 1);
  if (i + 1 >= n) return INCOMPLETE;
  const k = s.charCodeAt(i + 1);
  if (k === 0x5b) return csiEnd(s, i + 2); // [
  if (k === 0x5d || k === 0x50 || k === 0x58 || k === 0x5e || k === 0x5f) {
    // ] P X ^ _ : a string up to BEL or ESC \
    const stop = Math.min(n, i + 2 + MAX_STRING);
    for (let j = i + 2; j < stop; j++) {
      const d = s.charCodeAt(j);
      if (d === BEL) return j + 1;
      if (d === ESC) {
        if (j + 1 >= n) return INCOMPLETE;
        return s.charCodeAt(j + 1) === 0x5c ? j + 2 : j; // ESC \ ends it; another ESC starts anew
      }
    }
    return stop === n && n - i <= MAX_STRING ? INCOMPLETE : i + 2;
  }
  if (k === 0x28 || k === 0x29 || k === 0x2a || k === 0x2b || k === 0x2d || k === 0x2e || k === 0x2f || k === 0x23 || k === 0x25) {
    return i + 2 < n ? i + 3 : INCOMPLETE; // ( ) * + - . / # % and one more character
  }
  if (k >= 0x20 && k <= 0x7e) return i + 2;
  return i + 1; // ESC before a control character: drop the ESC alone
}

function csiEnd(s: string, j: number): number {
  const n = s.length;
  while (j < n && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x3f) j++;
  while (j < n && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
  if (j >= n) return INCOMPLETE;
  const f = s.charCodeAt(j);
  return f >= 0x40 && f <= 0x7e ? j + 1 : j;
}

// The same grammar as a regex, for stripping whole chunks: V8's regex engine beats a JS loop here.
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]{0,8192}(?:\x07|\x1b\\)|\x1b[()*+\-./#%][\s\S]|\x1b[ -~]/g;
// Control characters other than \t \n \r, including a lone ESC.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Removes ANSI escape sequences and control characters other than \t \n \r. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, '').replace(CONTROL, '');
}

/** Where an unfinished sequence starts at the end of `s` (within MAX_CARRY), or -1. */
function unfinishedTail(s: string): number {
  const floor = Math.max(0, s.length - MAX_CARRY);
  const last = Math.max(s.lastIndexOf('\x1b'), s.lastIndexOf('\x9b'));
  if (last < floor) return -1;
  // "ESC ] title ESC": the last ESC may be the first half of the string's terminator.
  const prev = last > floor ? s.lastIndexOf('\x1b', last - 1) : -1;
  if (prev >= floor && sequenceEnd(s, prev) === INCOMPLETE) return prev;
  return sequenceEnd(s, last) === INCOMPLETE ? last : -1;
}

/** Strips escape sequences from a stream of chunks, holding back a sequence split across chunks. */
export class AnsiStripper {
  private carry = '';

  push(text: string): string {
    let s = this.carry + text;
    this.carry = '';
    const cut = unfinishedTail(s);
    if (cut >= 0) {
      this.carry = s.slice(cut);
      s = s.slice(0, cut);
    }
    return stripAnsi(s);
  }

  /** At exit: whatever was held back, stripped. */
  flush(): string {
    const s = this.carry;
    this.carry = '';
    return stripAnsi(s);
  }
}
