// Agent Markdown streamed into blocks: finished blocks rendered once, the live tail re-rendered as text
// arrives (markdownRender.ts turns one text into sanitised nodes; markdownBlocks.ts finds where to cut).
import { codePieces, CutScanner, forcedCut, SOFT_TAIL, type FenceSpan } from './markdownBlocks';
import { fenceLanguage, MAX_HIGHLIGHT, renderMarkdownNodes, type MarkupBudget } from './markdownRender';

export type MarkdownBlock =
  /**
   * Sanitised nodes, built once: the block's first mount moves them in, a later one copies them. `cost`: their
   * markup's cost (markupCost). `inline`: a piece of a paragraph cut for speed, joined with its neighbours;
   * `startsParagraph`: the first piece of such a paragraph.
   */
  | { kind: 'html'; key: number; nodes: DocumentFragment; cost: number; inline: boolean; startsParagraph?: boolean }
  /** A long code block as plain text pieces (rendered as text nodes: nothing to sanitise). */
  | { kind: 'code'; key: number; lang: string; pieces: readonly string[] };

export interface MarkdownView {
  blocks: readonly MarkdownBlock[];
  /** The live block, re-rendered as text is appended. */
  tail: MarkdownBlock | undefined;
  /** The time budget ran out before all finished blocks were rendered: update again next frame. */
  pending: boolean;
}

/** Code streamed in an open fence: the pieces already cut stay the same strings across updates. */
interface OpenCode {
  /** Offset of the fence's first line in the text. */
  at: number;
  key: number;
  lang: string;
  pieces: string[];
  /** How much of the code the pieces cover. */
  end: number;
}

/**
 * Streaming Markdown: finished blocks are rendered once and cached; only the live tail (the block still
 * being written, at most ~SOFT_TAIL characters of a paragraph or list) is re-rendered when text is
 * appended. A code fence streams as plain text pieces (only the last one changes) and is highlighted
 * once closed if it is small. Rendering finished blocks stops at `deadline` (performance.now() time), so
 * a burst of many blocks is spread over frames. Non-append changes re-render from scratch.
 *
 * The message itself is never read whole once streaming: `append` takes the new chunks, and only the
 * unfinished text (`work`) is kept — reading a long message string each frame makes V8 copy it (a fresh
 * string of the message's size per frame, and major GCs).
 */
export class IncrementalMarkdown {
  /** The text of the last update, by reference only (reading it would copy it). */
  private seen = '';
  private length = 0;
  /** The text from offset `base` on. base <= stable, except inside a fence known to be long. */
  private work = '';
  private base = 0;
  /** Where the finished blocks end. */
  private stable = 0;
  private scanner = new CutScanner();
  private blocks: MarkdownBlock[] = [];
  private seq = 0;
  /** A paragraph was cut at a space and its next piece continues it inline. */
  private continuing = false;
  private openCode: OpenCode | undefined;
  private tailBlock: MarkdownBlock | undefined;
  /** The text length and stable end the tail block was built for. */
  private tailLength = -1;
  private tailStable = -1;
  /** Number of markdown-it renders done (tests check that appends stay incremental). */
  renders = 0;

  /** Complete lines the cut scan has looked at since the last start over. */
  get scannedLines(): number {
    return this.scanner.linesScanned;
  }

  /** Characters the cut scan has searched for line ends since the last start over. */
  get searchedChars(): number {
    return this.scanner.charsSearched;
  }

  /** Characters of the text held (the unfinished part): bounded while a message streams. */
  get heldChars(): number {
    return this.work.length;
  }

  /** The view of `text`; an append to the last text is rendered incrementally (reads the text once). */
  update(text: string, deadline = Infinity, markup?: MarkupBudget): MarkdownView {
    if (text === this.seen) return this.render(deadline, markup);
    if (text.length >= this.length && text.startsWith(this.seen)) return this.append([text.slice(this.length)], text, deadline, markup);
    this.reset();
    return this.append([text], text, deadline, markup);
  }

  /** The view after `chunks` were appended to the last text, giving `text` (used by reference only). */
  append(chunks: readonly string[], text: string, deadline = Infinity, markup?: MarkupBudget): MarkdownView {
    let added = 0;
    for (const c of chunks) added += c.length;
    if (this.length + added !== text.length) {
      this.reset();
      chunks = [text];
      added = text.length;
    }
    if (added > 0) {
      this.work += chunks.length === 1 ? chunks[0] : chunks.join('');
      this.length += added;
    }
    this.seen = text;
    return this.render(deadline, markup);
  }

  private reset(): void {
    this.seen = '';
    this.length = 0;
    this.work = '';
    this.base = 0;
    this.stable = 0;
    this.scanner = new CutScanner();
    this.blocks = [];
    this.continuing = false;
    this.openCode = undefined;
    this.tailBlock = undefined;
    this.tailLength = -1;
    this.tailStable = -1;
  }

  private render(deadline: number, markup: MarkupBudget | undefined): MarkdownView {
    const added: MarkdownBlock[] = [];
    const outOfTime = () => (added.length > 0 || markup?.started() === true) && (performance.now() > deadline || markup?.exhausted() === true);
    let pending = false;
    search: for (;;) {
      let start = this.stable;
      const cuts = this.scanner.cuts(this.work, start, this.base);
      for (let i = 0; i < cuts.length; i++) {
        if (outOfTime()) {
          pending = true;
          break search;
        }
        // Consecutive small blocks that arrived together go through markdown-it and DOMPurify in one
        // call (each call has a fixed cost); code fences and a paragraph's inline remainder stay alone.
        let end = cuts[i];
        if (!this.continuing && !this.startsWithFence(start)) {
          while (i + 1 < cuts.length && cuts[i + 1] - start <= SOFT_TAIL && !this.startsWithFence(cuts[i])) end = cuts[++i];
        }
        const markupAdded = this.push(added, start, end, false);
        markup?.spend(markupAdded);
        start = end;
        this.setStable(start);
      }
      if (start < this.base || this.scanner.openFence()?.at === start) break; // a fence is never cut
      if (this.length - start <= SOFT_TAIL) break;
      // Checked before looking for a cut, which reads the tail: a render that waits costs nothing.
      if (outOfTime()) {
        pending = true;
        break;
      }
      const forced = forcedCut(this.work.slice(start - this.base));
      if (!forced) break;
      const markupAdded = this.push(added, start, start + forced.at, forced.paragraph);
      markup?.spend(markupAdded);
      this.setStable(start + forced.at);
    }
    if (added.length) this.blocks = this.blocks.concat(added);
    if (pending) return { blocks: this.blocks, tail: undefined, pending };
    if (this.tailLength !== this.length || this.tailStable !== this.stable) {
      // Out of budget: a tail that only grew shows as it was; one the new blocks overtook waits.
      if (outOfTime()) return { blocks: this.blocks, tail: this.tailStable === this.stable ? this.tailBlock : undefined, pending: true };
      this.tailLength = this.length;
      this.tailStable = this.stable;
      this.tailBlock = this.renderTail();
      if (this.tailBlock?.kind === 'html') markup?.spend(this.tailBlock.cost);
    }
    return { blocks: this.blocks, tail: this.tailBlock, pending };
  }

  private setStable(at: number): void {
    this.stable = at;
    this.dropBefore(at);
  }

  /** Forgets the text before `at` (never what the scanner still needs). */
  private dropBefore(at: number): void {
    const to = Math.min(at, this.scanner.lineStart());
    if (to <= this.base) return;
    this.work = this.work.slice(to - this.base);
    this.base = to;
  }

  /** Text before `base` is only ever the start of a long fence. */
  private startsWithFence(at: number): boolean {
    return at < this.base || this.scanner.fenceAt(at) !== undefined;
  }

  /** The fence at `at` if it is closed, too long to highlight, and all of the block [at, end). */
  private longClosedFence(at: number, end: number): FenceSpan | undefined {
    const span = this.scanner.fenceAt(at);
    if (span?.closeAt === undefined || span.end === undefined || span.end > end) return undefined;
    if (span.closeAt - span.codeAt <= MAX_HIGHLIGHT) return undefined;
    return this.work.slice(span.end - this.base, end - this.base).trim() ? undefined : span;
  }

  private renderTail(): MarkdownBlock | undefined {
    const open = this.scanner.openFence();
    if (open?.at === this.stable) {
      const block = this.fencePieces(open, this.length);
      // Past the highlighting limit a top-level fence stays pieces: the text they hold is not needed.
      if (open.topLevel && this.openCode!.end > MAX_HIGHLIGHT) this.dropBefore(open.codeAt + this.openCode!.end);
      return block;
    }
    // A long top-level fence whose text was dropped has closed; a line after it is still growing.
    const long = this.base > this.stable ? this.scanner.fenceAt(this.stable) : this.longClosedFence(this.stable, this.length);
    if (long) return this.fencePieces(long, long.closeAt!);
    const tail = this.work.slice(this.stable - this.base);
    if (!tail.trim()) return undefined;
    this.renders++;
    const { nodes, cost } = renderMarkdownNodes(tail, this.continuing && /\s$/.test(tail));
    return { kind: 'html', key: -1, nodes, cost, inline: this.continuing };
  }

  /**
   * The fence `span` as plain code pieces up to `codeEnd` (its closing line, or the end of the text while
   * it is open). The pieces and the key stay the same from streaming to finished: nothing is re-mounted.
   */
  private fencePieces(span: FenceSpan, codeEnd: number): MarkdownBlock {
    let open = this.openCode;
    if (open?.at !== span.at) open = this.openCode = { at: span.at, key: this.seq++, lang: fenceLanguage(span.info), pieces: [], end: 0 };
    const rest = this.work.slice(span.codeAt + open.end - this.base, codeEnd - this.base);
    const more = codePieces(rest);
    open.pieces.push(...more.pieces);
    open.end += more.end;
    const last = rest.slice(more.end);
    return { kind: 'code', key: open.key, lang: open.lang, pieces: last ? [...open.pieces, last] : open.pieces.slice() };
  }

  /**
   * Renders the finished piece [start, end) into `out`; returns the cost of the markup it added
   * (markupCost). `splitsParagraph`: the piece ends inside a paragraph that goes on.
   */
  private push(out: MarkdownBlock[], start: number, end: number, splitsParagraph: boolean): number {
    const inline = this.continuing || splitsParagraph;
    const startsParagraph = splitsParagraph && !this.continuing;
    this.continuing = splitsParagraph;
    const long = this.longClosedFence(start, end);
    if (long) {
      out.push(this.fencePieces(long, long.closeAt!));
      this.openCode = undefined;
      return long.closeAt! - long.codeAt;
    }
    const src = this.work.slice(start - this.base, end - this.base);
    if (!src.trim()) return 0;
    this.openCode = undefined;
    this.renders++;
    // A space the cut took from between two words is put back (markdown-it trims it from the piece).
    const { nodes, cost } = renderMarkdownNodes(src, inline && /\s$/.test(src));
    out.push({ kind: 'html', key: this.seq++, nodes, cost, inline, ...(startsParagraph ? { startsParagraph } : {}) });
    return cost;
  }
}
