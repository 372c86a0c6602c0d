import type { Draft } from '../store';
import { Icon } from './Icon';
import { MentionChip } from './MentionChip';

/** The draft's mention chips and pasted images, each removable. */
export function ComposerAttachments({ draft, onChange }: { draft: Draft; onChange(d: Draft): void }) {
  if (draft.mentions.length === 0 && draft.images.length === 0) return null;
  return (
    <ul class="attachments" aria-label="Attachments">
      {draft.mentions.map((m, i) => (
        <MentionChip key={`m${i}`} mention={m} onRemove={() => onChange({ ...draft, mentions: draft.mentions.filter((_, j) => j !== i) })} />
      ))}
      {draft.images.map((img) => (
        <li key={img.id} class="chip">
          <img class="chip-thumb" alt="" src={`data:${img.mimeType};base64,${img.data}`} />
          <span>{img.name || 'Image'}</span>
          <button
            type="button"
            class="icon-button"
            aria-label={`Remove image ${img.name || ''}`.trim()}
            onClick={() => onChange({ ...draft, images: draft.images.filter((x) => x.id !== img.id) })}
          >
            <Icon name="close" />
          </button>
        </li>
      ))}
    </ul>
  );
}
