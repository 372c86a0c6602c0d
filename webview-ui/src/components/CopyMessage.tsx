import type { TranscriptContent } from '../../../src/shared/transcript';
import { messageMarkdown } from '../../../src/shared/transcriptMarkdown';
import { Icon, useStore } from './common';

/** What the host accepts in one copy (its message schema's bound). */
const MAX_COPY = 1_000_000;

/** "Copy" on a message: its content as Markdown to the clipboard (the host copies and says "Copied"). */
export function CopyMessage({ content, who }: { content: readonly TranscriptContent[]; who: string }) {
  const store = useStore();
  const copy = () => {
    const markdown = messageMarkdown(content, MAX_COPY);
    store.post({ type: 'copyCode', code: markdown.length > MAX_COPY ? markdown.slice(0, MAX_COPY) : markdown });
  };
  return (
    <button type="button" class="icon-button copy-message" aria-label="Copy" title={`Copy ${who} message as Markdown`} onClick={copy}>
      <Icon name="copy" />
    </button>
  );
}
