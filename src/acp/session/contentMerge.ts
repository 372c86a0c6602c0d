// Streaming chunks: consecutive text is joined into one block, anything else appended.
import type { TranscriptContent } from '../../shared/transcript';

export function appendContent(content: readonly TranscriptContent[], chunk: TranscriptContent): TranscriptContent[] {
  const last = content[content.length - 1];
  if (chunk.type === 'text' && last !== undefined && last.type === 'text') {
    const merged = content.slice(0, -1);
    merged.push({ type: 'text', text: last.text + chunk.text });
    return merged;
  }
  const appended = content.slice();
  appended.push(chunk);
  return appended;
}
