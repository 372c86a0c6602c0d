// Which chunks were appended to a streamed text block, so Markdown can take only what is new. Reading a
// long message string (slicing or comparing it) makes V8 copy the whole of it; doing that every frame
// costs a fresh string of the message's size per frame and, for long messages, major GCs (long tasks).
// Each text block object the reducer creates by an append links back to the block it replaced.
import type { TranscriptContent } from '../../src/shared/transcript';

type Block = TranscriptContent;

const appended = new WeakMap<Block, { prev: Block; chunk: string }>();
/** A chain longer than this is not walked (the reader renders from the whole text instead). */
const MAX_WALK = 100_000;

/** Called by the reducer: `next` is `prev` with `chunk` appended. */
export function recordAppend(prev: Block, next: Block, chunk: string): void {
  appended.set(next, { prev, chunk });
}

/**
 * The chunks appended to `block` since `shown` (the block last rendered), oldest first; each link is read
 * once. Undefined when `block` is to be read whole (first shown, or not descended from `shown` by appends:
 * another transcript, a resync); its link is then dropped, as it would keep every older block alive.
 */
export function appendsSince(shown: Block | undefined, block: Block): string[] | undefined {
  const chunks: string[] = [];
  for (let b = block, n = 0; b !== shown; n++) {
    const link = appended.get(b);
    if (!link || !shown || n > MAX_WALK) {
      appended.delete(block);
      return undefined;
    }
    chunks.push(link.chunk);
    b = link.prev;
  }
  for (let b = block; b !== shown; ) {
    const link = appended.get(b)!;
    appended.delete(b);
    b = link.prev;
  }
  return chunks.reverse();
}
