// Where streamed Markdown can be cut into blocks that later text cannot change, without parsing it:
// line-level rules for fences, blank lines, headings, list items and long paragraphs. Pure string code
// (no markdown-it), used by IncrementalMarkdown (markdown.ts).

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

interface FenceOpener {
  ch: string;
  len: number;
  info: string;
}

/** The fence a line opens (backtick fences may not have backticks in their info), if it opens one. */
function fenceOpener(line: string): FenceOpener | undefined {
  const m = FENCE.exec(line);
  if (!m || (m[1][0] === '`' && m[2].includes('`'))) return undefined;
  return { ch: m[1][0], len: m[1].length, info: m[2] };
}

/** True for a line that closes the fence `opener` opened: same character, at least as long, nothing after. */
function closesFence(line: string, opener: FenceOpener): boolean {
  const m = FENCE.exec(line);
  return !!m && m[1][0] === opener.ch && m[1].length >= opener.len && !m[2].trim();
}

/**
 * Finds cut points in a growing text: offsets of lines that start a new top-level block, outside code
 * fences: after a blank line; a complete line opening a fence or an ATX heading (both end a paragraph,
 * list or quote without a blank line); the first line after a top-level fence closed (nothing continues a
 * fenced block). Everything before the last cut is finished Markdown that later chunks cannot change
 * (modulo reference-style links, accepted). Resumable: each complete line is scanned once while text is
 * appended, so a chunk costs the lines it adds, not a rescan of an open fence. Offsets are absolute; the
 * caller may drop text before lineStart() and pass the rest with its offset (`base`).
 */
/** A code fence the scanner found: where it begins, its code and, once closed, its closing line. */
export interface FenceSpan {
  at: number;
  codeAt: number;
  info: string;
  /** Its opener is not indented: it is a block of its own (a cut before it and after it). */
  topLevel: boolean;
  /** Where the closing line starts and where the line after it starts; undefined while open. */
  closeAt?: number;
  end?: number;
}

export class CutScanner {
  private pos: number;
  private fence: { opener: FenceOpener; span: FenceSpan } | undefined;
  private prevBlank = false;
  /** A top-level fence just closed: the next non-blank line starts a new block. */
  private afterFence = false;
  private found: number[] = [];
  /** How far the line at `pos` has been searched for its end. */
  private searched = 0;
  /** Every fence found, by where it begins. */
  private fences = new Map<number, FenceSpan>();
  /** Complete lines and characters looked at so far (tests check that appends stay incremental). */
  linesScanned = 0;
  charsSearched = 0;

  /** `from` must be outside a code fence; it is never a cut itself. */
  constructor(private from = 0) {
    this.pos = from;
  }

  /** Where the line being scanned starts: text before it is no longer needed. */
  lineStart(): number {
    return this.pos;
  }

  /**
   * Cut points after `after` in the text, given as `work` = the text from offset `base` on (base at most
   * lineStart()); the text must extend the text of earlier calls.
   */
  cuts(work: string, after: number, base = 0): number[] {
    let provisional: number | undefined;
    const length = base + work.length;
    while (this.pos < length) {
      const from = Math.max(this.pos, this.searched);
      const nl = work.indexOf('\n', from - base);
      this.charsSearched += (nl < 0 ? work.length : nl) - (from - base);
      if (nl < 0) {
        // A growing line: remember how far it was searched; a cut if it starts a block after a blank
        // line or a fence (decided again once the line is complete).
        this.searched = length;
        const first = work[this.pos - base];
        if (!this.fence && (this.prevBlank || this.afterFence) && !/\s/.test(first)) provisional = this.pos;
        break;
      }
      this.scanLine(work.slice(this.pos - base, nl), base + nl + 1);
      this.linesScanned++;
      this.pos = base + nl + 1;
    }
    while (this.found.length > 0 && this.found[0] <= after) this.found.shift();
    return provisional !== undefined && provisional > after ? [...this.found, provisional] : this.found;
  }

  /** The fence whose first line is at `at`, if one is (open or closed). */
  fenceAt(at: number): FenceSpan | undefined {
    return this.fences.get(at);
  }

  /** The code fence open at the end of the scanned text. */
  openFence(): FenceSpan | undefined {
    return this.fence?.span;
  }

  private scanLine(line: string, next: number): void {
    if (this.fence) {
      if (closesFence(line, this.fence.opener)) {
        this.fence.span.closeAt = this.pos;
        this.fence.span.end = next;
        this.afterFence = this.fence.span.topLevel;
        this.fence = undefined;
      }
      this.prevBlank = false;
      return;
    }
    const blank = line.trim() === '';
    const opener = fenceOpener(line);
    const indented = /^\s/.test(line);
    const interrupts = !indented && (opener !== undefined || ATX_HEADING.test(line));
    if (!blank && this.pos > this.from && ((this.prevBlank && !indented) || interrupts || this.afterFence)) this.found.push(this.pos);
    if (!blank) this.afterFence = false;
    if (opener) {
      const span: FenceSpan = { at: this.pos, codeAt: next, info: opener.info, topLevel: !indented };
      this.fences.set(span.at, span);
      this.fence = { opener, span };
    }
    this.prevBlank = blank;
  }
}

/** The cut points of `text` after `from` (which must be outside a code fence), in one scan. */
export function findCuts(text: string, from: number): number[] {
  return new CutScanner(from).cuts(text, from).slice();
}

/** Above this many characters the live tail is cut even without a blank line (bounded cost per chunk). */
export const SOFT_TAIL = 2048;
/** How far forcedCut looks for the end of the tail's first line. */
const FIRST_LINE_SEARCH = 8 * SOFT_TAIL;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** First lines of blocks a whitespace cut must not turn a paragraph's continuation into. */
const BLOCK_START = /^ {0,3}(?:[-*+>#|]|\d{1,9}[.)]|`{3}|~{3}|={2,}|-{2,})|^ {4}/;
const INTERRUPTING_LINE = /\n {0,3}(?:[-*+>|=#]|\d{1,9}[.)]|`{3}|~{3})/;

/**
 * Where to cut a long live tail that has no blank line: between list items (the list continues as a
 * second list that looks the same), or inside a plain paragraph at a space (the pieces are shown inline,
 * as one paragraph). Returns the offset and whether the cut splits a paragraph, or undefined.
 */
export function forcedCut(tail: string): { at: number; paragraph: boolean } | undefined {
  // The first line's end is looked for near the start only: a long paragraph has none, and reading all of
  // it on every cut would make cutting a backlog quadratic. A list item longer than that is not cut.
  const head = tail.length > FIRST_LINE_SEARCH ? tail.slice(0, FIRST_LINE_SEARCH) : tail;
  const firstEnd = head.indexOf('\n');
  const first = firstEnd < 0 ? head : head.slice(0, firstEnd);
  if (fenceOpener(first)) return undefined;
  if (LIST_ITEM.test(first)) {
    let best = -1;
    for (let pos = firstEnd + 1; pos > 0 && pos < tail.length; ) {
      const nl = tail.indexOf('\n', pos);
      if (nl < 0) break; // the last line may still be growing into something else
      const line = tail.slice(pos, nl);
      if (fenceOpener(line)) break;
      if (LIST_ITEM.test(line)) best = pos;
      pos = nl + 1;
    }
    return best > 0 ? { at: best, paragraph: false } : undefined;
  }
  if (BLOCK_START.test(first)) return undefined;
  // The last space before SOFT_TAIL outside code spans and link text; after 4x that, any space.
  const limit = Math.min(tail.length - 1, SOFT_TAIL);
  let best = -1;
  let anySpace = -1;
  let ticks = 0;
  let brackets = 0;
  for (let i = 1; i <= limit; i++) {
    const c = tail.charCodeAt(i - 1);
    if (c === 96) ticks++;
    else if (c === 91) brackets++;
    else if (c === 93) brackets--;
    if ((c === 32 || c === 10) && /\p{L}/u.test(tail[i])) {
      anySpace = i;
      if (ticks % 2 === 0 && brackets <= 0) best = i;
    }
  }
  const at = best > 0 ? best : tail.length > 4 * SOFT_TAIL ? anySpace : -1;
  // A line inside the piece that starts another block (list, quote, table, setext underline) would make
  // the piece more than a paragraph: leave such a tail whole.
  if (at <= 0 || INTERRUPTING_LINE.test(tail.slice(0, at))) return undefined;
  return { at, paragraph: true };
}

/**
 * A copy of `s` that does not keep its parent alive: V8 makes a slice of a long string a view into the
 * parent, and a streamed message's text is a fresh ~N KB string each frame, so every kept piece would pin
 * a whole copy of the message (megabytes for a long code block, and major GCs).
 */
export function detach(s: string): string {
  return (' ' + s).slice(1);
}

/** Code longer than this is shown in pieces of about this size, as plain text (see CodeBlockView). */
export const CODE_PIECE = 4096;

/** Cuts `code` into pieces of about CODE_PIECE characters at line ends, leaving the last ≤ CODE_PIECE; returns the pieces and where they end. */
export function codePieces(code: string): { pieces: string[]; end: number } {
  const pieces: string[] = [];
  let end = 0;
  while (code.length - end > CODE_PIECE) {
    const nl = code.lastIndexOf('\n', end + CODE_PIECE);
    const cut = nl >= end ? nl + 1 : end + CODE_PIECE;
    pieces.push(detach(code.slice(end, cut)));
    end = cut;
  }
  return { pieces, end };
}
