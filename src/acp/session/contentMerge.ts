// Streaming chunks: consecutive text is joined into one block, anything else appended.
import type { TranscriptContent } from '../../shared/transcript';

export function appendContent(content: readonly TranscriptContent[], chunk: TranscriptContent): TranscriptContent[] {
  const n = content.length;
  const last = content[n - 1];
  if (chunk.type === 'text' && last !== undefined && last.type === 'text') {
    // The common case (a message that is one text block) without slice + push.
    if (n === 1) return [{ type: 'text', text: last.text + chunk.text }];
    const merged = content.slice(0, -1);
    merged.push({ type: 'text', text: last.text + chunk.text });
    return merged;
  }
  const appended = content.slice();
  appended.push(chunk);
  return appended;
}
