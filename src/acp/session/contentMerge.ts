// Streaming chunks: consecutive text is joined into one block, anything else appended.
import type { TranscriptContent } from '../../shared/transcript';

export function appendContent(content: readonly TranscriptContent[], chunk: TranscriptContent): TranscriptContent[] {
  const n = content.length;
  const last = content[n - 1];
  if (chunk.type === 'text' && last !== undefined && last.type === 'text') {
    // The common case (a message that is one text block) without slice + push.
    if (n === 1) return [{ type: 'text', text: joinText(last.text, chunk.text) }];
    const merged = content.slice(0, -1);
    merged.push({ type: 'text', text: joinText(last.text, chunk.text) });
    return merged;
  }
  const appended = content.slice();
  appended.push(chunk);
  return appended;
}

/**
 * `a + b` for text that grows a chunk at a time. V8 makes `a + b` a rope node that keeps both halves alive,
 * so a message streamed in 20,000 chunks would hold 40,000 small heap objects that every garbage collection
 * copies or walks (most of the protocol bench's reducer cost). Reading a character flattens a rope into one
 * string; doing it each time the text has grown by an eighth to a sixteenth (and by at least 128
 * characters) keeps ropes short while copying each character about 16 times in all.
 */
export function joinText(a: string, b: string): string {
  const text = a + b;
  const shift = Math.max(7, 28 - Math.clz32(text.length));
  if (text.length >> shift !== a.length >> shift) text.charCodeAt(0);
  return text;
}
