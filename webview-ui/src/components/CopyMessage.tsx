import type { TranscriptContent } from '../../../src/shared/transcript';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** What the host accepts in one copy (its message schema's bound). */
const MAX_COPY = 1_000_000;

/** A message's content as Markdown: its text as the agent wrote it, attachments as links. */
function messageMarkdown(content: readonly TranscriptContent[]): string {
  const part = (c: TranscriptContent): string => {
    if (c.type === 'text') return c.text;
    if (c.type === 'resource_link') return `[${c.title ?? c.name}](${c.uri})`;
    if (c.type === 'resource') return `<${c.uri}>`;
    if (c.type === 'image' || c.type === 'audio') return `*[${c.type}: ${c.mimeType}]*`;
    return '';
  };
  return content.map(part).filter(Boolean).join('\n\n');
}

/** "Copy" on a message: its Markdown to the clipboard (the host copies and says "Copied"). */
export function CopyMessage({ content, who }: { content: readonly TranscriptContent[]; who: string }) {
  const store = useStore();
  const copy = () => store.post({ type: 'copyCode', code: messageMarkdown(content).slice(0, MAX_COPY) });
  return (
    <button type="button" class="icon-button copy-message" aria-label="Copy" title={`Copy ${who} message as Markdown`} onClick={copy}>
      <Icon name="copy" />
    </button>
  );
}
