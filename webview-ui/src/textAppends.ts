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
 * The chunks appended from `from` to `to`, oldest first, or undefined when `to` does not descend from
 * `from` by appends (another transcript, a resync). Forgets the links it walked: each is read once.
 */
export function takeAppends(from: Block, to: Block): string[] | undefined {
  const chunks: string[] = [];
  let b = to;
  for (let n = 0; b !== from; n++) {
    const link = appended.get(b);
    if (!link || n > MAX_WALK) return undefined;
    chunks.push(link.chunk);
    b = link.prev;
  }
  for (let c = to; c !== from; ) {
    const link = appended.get(c)!;
    appended.delete(c);
    c = link.prev;
  }
  return chunks.reverse();
}

/** `block` was read whole: the links behind it are not needed (and would keep every older block alive). */
export function forgetAppends(block: Block): void {
  appended.delete(block);
}
