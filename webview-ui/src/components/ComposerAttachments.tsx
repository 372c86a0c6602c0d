import type { Draft } from '../store';
import { Icon } from './Icon';
import { MentionChip } from './MentionChip';

/** The draft's mention chips and pasted images, each removable (`onChange` gets the lists that changed). */
export function ComposerAttachments({ draft, onChange }: { draft: Draft; onChange(change: Pick<Partial<Draft>, 'mentions' | 'images'>): void }) {
  if (draft.mentions.length === 0 && draft.images.length === 0) return null;
  return (
    <ul class="attachments" aria-label="Attachments">
      {draft.mentions.map((m, i) => (
        <MentionChip key={`m${i}`} mention={m} onRemove={() => onChange({ mentions: draft.mentions.filter((_, j) => j !== i) })} />
      ))}
      {draft.images.map((img) => (
        <li key={img.id} class="chip">
          <img class="chip-thumb" alt="" src={`data:${img.mimeType};base64,${img.data}`} />
          <span>{img.name || 'Image'}</span>
          <button
            type="button"
            class="icon-button"
            aria-label={`Remove image ${img.name || ''}`.trim()}
            onClick={() => onChange({ images: draft.images.filter((x) => x.id !== img.id) })}
          >
            <Icon name="close" />
          </button>
        </li>
      ))}
    </ul>
  );
}
