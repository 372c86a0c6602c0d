// The Markdown rendering of text blocks whose element left the DOM (the virtualized transcript unmounts the
// items scrolled away): kept by block key, so scrolling back shows the blocks' HTML again without parsing
// the text through markdown-it and DOMPurify once more. An entry is checked against the text when it is
// taken: a block whose text changed meanwhile starts over (IncrementalMarkdown takes an append as one).
import { BlockPages } from './blockPages';
import { IncrementalMarkdown } from './markdown';

/** A text block's rendering state: what a mounted Markdown component holds. */
export interface MarkdownState {
  inc: IncrementalMarkdown;
  layout: BlockPages;
  /** The text-stream epoch and text length the block last rendered (Markdown.tsx). */
  shown?: { epoch: number; length: number };
  /** The text the state was last rendered for. */
  text: string;
}

/** Blocks kept: a few screens of a long session each way (a day's session has thousands). */
export const CACHE_BLOCKS = 400;

export class MarkdownCache {
  /** In order of last use: the first is evicted first. */
  private readonly entries = new Map<string, MarkdownState>();

  constructor(private readonly capacity = CACHE_BLOCKS) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * The state kept for `key` (removed from the cache: one mounted component owns it), or a fresh one.
   * A kept state whose text is neither `text` nor a beginning of it is dropped: the block was replaced.
   */
  take(key: string | undefined, text: string): MarkdownState {
    const kept = key === undefined ? undefined : this.entries.get(key);
    if (key !== undefined) this.entries.delete(key);
    if (kept && (kept.text === text || (text.length > kept.text.length && text.startsWith(kept.text)))) return kept;
    return { inc: new IncrementalMarkdown(), layout: new BlockPages(), text };
  }

  /** Keeps `state` under `key` (a component unmounting), evicting the least recently used past capacity. */
  put(key: string, state: MarkdownState): void {
    this.entries.delete(key);
    this.entries.set(key, state);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/** The webview's one instance: Markdown components take from it on mount and put back on unmount. */
export const markdownCache = new MarkdownCache();
