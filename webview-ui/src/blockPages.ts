// How a message's Markdown blocks are laid out as elements, kept incrementally so that a render of a long
// answer costs what changed at its end, not its length:
// - runs: the pieces of one long paragraph in blocks of their own, so appending lays out the last run
//   only (one inline formatting context costs layout in proportion to it); the price is a line break
//   every RUN_PIECES pieces (~8 KB of one paragraph).
// - pages: PAGE_SIZE items per page; a page that no longer holds the last item never changes again and
//   keeps its identity, so a render diffs the last page and the page list, not every block.
import type { MarkdownBlock } from './markdown';

export const RUN_PIECES = 4;
export const PAGE_SIZE = 32;

export type Run = { kind: 'run'; key: number; starts: boolean; pieces: readonly MarkdownBlock[] };
export type PageItem = MarkdownBlock | Run;
/** `key` is the page's index: an item stays in its page from the first render on. */
export type Page = { key: number; items: readonly PageItem[] };

/** Appends `block`, continuing the last run when it continues that run's paragraph. */
function place(items: PageItem[], block: MarkdownBlock): void {
  if (block.kind !== 'html' || !block.inline) {
    items.push(block);
    return;
  }
  const last = items[items.length - 1];
  if (last?.kind === 'run' && !block.startsParagraph && last.pieces.length < RUN_PIECES) {
    items[items.length - 1] = { ...last, pieces: [...last.pieces, block] };
  } else {
    items.push({ kind: 'run', key: block.key, starts: block.startsParagraph === true, pieces: [block] });
  }
}

export class BlockPages {
  private items: PageItem[] = [];
  /** How many of the blocks are placed, and the last of them (the blocks only ever grow at the end). */
  private placed = 0;
  private lastPlaced: MarkdownBlock | undefined;
  private readonly final: Page[] = [];

  /** The pages of `blocks` followed by `tail`, which is placed where it will be once it is a block. */
  pages(blocks: readonly MarkdownBlock[], tail: MarkdownBlock | undefined): Page[] {
    if (blocks.length < this.placed || (this.placed > 0 && blocks[this.placed - 1] !== this.lastPlaced)) this.reset();
    for (let i = this.placed; i < blocks.length; i++) place(this.items, blocks[i]);
    this.placed = blocks.length;
    this.lastPlaced = blocks[blocks.length - 1];
    const open = Math.floor(Math.max(0, this.items.length - 1) / PAGE_SIZE);
    for (let p = this.final.length; p < open; p++) this.final.push({ key: p, items: this.items.slice(p * PAGE_SIZE, (p + 1) * PAGE_SIZE) });
    const rest = this.items.slice(open * PAGE_SIZE);
    if (tail) place(rest, tail);
    const pages = this.final.slice();
    for (let i = 0; i < rest.length; i += PAGE_SIZE) pages.push({ key: open + i / PAGE_SIZE, items: rest.slice(i, i + PAGE_SIZE) });
    return pages;
  }

  private reset(): void {
    this.items = [];
    this.placed = 0;
    this.lastPlaced = undefined;
    this.final.length = 0;
  }
}
