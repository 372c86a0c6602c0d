// ANSI escape handling for terminal output: the chat shows plain text, and terminal/output gives the agent
// text without escape sequences. One grammar, as a regex for whole strings and as a scanner that finds a
// sequence cut off at the end of a chunk, so a stream can be stripped chunk by chunk.

/**
 * What happens to carriage returns: 'lf' turns \r\n into \n and drops a lone \r (a progress bar redrawing
 * its line; plain text cannot show that), 'keep' leaves them as the program wrote them.
 */
export type LineEnds = 'lf' | 'keep';

// CSI (ESC [ or 0x9b, parameters, intermediates, final), OSC / DCS / SOS / PM / APC strings ended by BEL or
// ESC \, charset designations (ESC ( B) and the other two-character escapes (ESC 7, ESC =).
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]{0,8192}(?:\x07|\x1b\\)|\x1b[()*+\-./#%][\s\S]|\x1b[ -~]/g;
// Control characters other than \t \n \r, including a lone ESC.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Removes ANSI escape sequences and control characters other than \t and \n (and \r, see `lineEnds`). */
export function stripAnsi(text: string, lineEnds: LineEnds = 'lf'): string {
  const stripped = text.replace(ANSI_SEQUENCE, '').replace(CONTROL, '');
  return lineEnds === 'keep' ? stripped : toLineFeeds(stripped);
}

/** 'lf' line ends for text already stripped: \r\n becomes \n and a lone \r goes, so every \r goes (chunk by chunk too). */
export function toLineFeeds(text: string): string {
  return text.replace(/\r/g, '');
}

/** Strips escape sequences from a stream of chunks, holding back a sequence split across chunks. */
export class AnsiStripper {
  private carry = '';

  constructor(private readonly lineEnds: LineEnds = 'lf') {}

  push(text: string): string {
    const { text: out, carry } = stripAnsiStreaming(this.carry, text, this.lineEnds);
    this.carry = carry;
    return out;
  }

  /** At exit: whatever was held back, stripped. */
  flush(): string {
    const s = this.carry;
    this.carry = '';
    return stripAnsi(s, this.lineEnds);
  }
}

/** AnsiStripper for a caller that keeps the carry itself: the printable text, and the unfinished tail to pass next time. */
export function stripAnsiStreaming(carry: string, chunk: string, lineEnds: LineEnds = 'lf'): { text: string; carry: string } {
  const s = carry + chunk;
  const cut = unfinishedTail(s);
  if (cut < 0) return { text: stripAnsi(s, lineEnds), carry: '' };
  return { text: stripAnsi(s.slice(0, cut), lineEnds), carry: s.slice(cut) };
}

const ESC = 0x1b;
const BEL = 0x07;
const CSI8 = 0x9b;
const MAX_STRING = 8192; // longest OSC / DCS string treated as one sequence (as in ANSI_SEQUENCE)
const MAX_CARRY = 4096; // never hold back more than this: a stray ESC must not swallow the output
const INCOMPLETE = -1;

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

/**
 * Where the escape sequence or control character at `i` ends (exclusive), or INCOMPLETE when the text ends
 * inside it. The same grammar as ANSI_SEQUENCE, used on the tail of each chunk only.
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
