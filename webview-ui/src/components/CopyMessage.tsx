import type { TranscriptContent } from '../../../src/shared/transcript';
import { contentsMarkdown } from '../../../src/shared/transcriptMarkdown';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** What the host accepts in one copy (its message schema's bound). */
const MAX_COPY = 1_000_000;

/** "Copy" on a message: its Markdown to the clipboard (the host copies and says "Copied"). */
export function CopyMessage({ content, who }: { content: readonly TranscriptContent[]; who: string }) {
  const store = useStore();
  const copy = () => store.post({ type: 'copyCode', code: contentsMarkdown(content, { maxBlock: MAX_COPY }).slice(0, MAX_COPY) });
  return (
    <button type="button" class="icon-button copy-message" aria-label="Copy" title={`Copy ${who} message as Markdown`} onClick={copy}>
      <Icon name="copy" />
    </button>
  );
}
