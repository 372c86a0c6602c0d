// The text the host's `appendText` ops added to each streamed block, kept until the block's Markdown next
// renders, so it parses only the new text. Reading a long message string (slicing or comparing it) makes
// V8 copy the whole of it; doing that every frame costs a fresh string of the message's size per frame
// and, for long messages, major GCs (long tasks).

/** A block's log past this many characters is dropped; its Markdown then reads the whole text once. */
const MAX_LOGGED = 256 * 1024;

export class TextStreams {
  private readonly logs = new Map<string, { chunks: string[]; length: number }>();
  /** Blocks whose log outgrew its bound: nothing is logged until their Markdown reads the whole text. */
  private readonly dropped = new Set<string>();
  /** Bumped when every log is void (a snapshot replaced the transcripts). */
  epoch = 0;

  append(key: string, text: string): void {
    if (this.dropped.has(key)) return;
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = { chunks: [], length: 0 }));
    log.chunks.push(text);
    log.length += text.length;
    // Nobody is reading this block (another tab, outside the window): keep memory bounded.
    if (log.length > MAX_LOGGED) {
      this.logs.delete(key);
      this.dropped.add(key);
    }
  }

  /** The text appended to `key` since the last call; undefined when nothing was logged. */
  take(key: string): { chunks: string[]; length: number } | undefined {
    const log = this.logs.get(key);
    this.logs.delete(key);
    this.dropped.delete(key);
    return log;
  }

  reset(): void {
    this.logs.clear();
    this.dropped.clear();
    this.epoch++;
  }
}

/** The webview's one instance: the store writes, Markdown reads. */
export const textStreams = new TextStreams();

/** The key of a streamed text block: its session, item and content index. */
export function streamKey(sessionId: string, itemId: string, contentIndex: number): string {
  return `${sessionId}\n${itemId}\n${contentIndex}`;
}
