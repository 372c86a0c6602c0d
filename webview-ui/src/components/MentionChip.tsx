// A mention chip in the composer: what the message will refer to, opened by a click, removed by its button.
import type { MentionRef } from '../../../src/shared/chatState';
import { MENTION_ICON } from '../mentionGroups';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** The longest preview of a chip's own text in its tooltip. */
const PREVIEW_CHARS = 2000;

/** A mention in the composer, removable before sending, opened by a click; a chip that carries text shows it on hover. */
export function MentionChip({ mention, onRemove }: { mention: MentionRef; onRemove: () => void }) {
  const store = useStore();
  const title = mention.text !== undefined ? mention.text.slice(0, PREVIEW_CHARS) : mention.uri;
  const { uri, kind, range, text } = mention;
  return (
    <li class="chip">
      <Icon name={MENTION_ICON[mention.kind] ?? 'file'} />
      <button type="button" class="chip-open" title={title} aria-label={`Open ${mention.label}`} onClick={() => store.post({ type: 'openResource', uri, kind, range, text })}>
        {mention.label}
      </button>
      <button type="button" class="icon-button" aria-label={`Remove ${mention.label}`} onClick={onRemove}>
        <Icon name="close" />
      </button>
    </li>
  );
}
