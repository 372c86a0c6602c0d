import type { MentionCandidate } from '../../../src/shared/chatState';
import { MENTION_ICON, mentionGroup } from '../mentionGroups';
import { Icon } from './Icon';

/** One `@` candidate in the completion list, under its group's heading when it is the group's first. */
export function MentionOption({ candidate, previous, index, active, onAccept }: { candidate: MentionCandidate; previous: MentionCandidate | undefined; index: number; active: boolean; onAccept: () => void }) {
  const group = mentionGroup(candidate.kind);
  const heading = !previous || mentionGroup(previous.kind) !== group;
  return (
    <>
      {heading && (
        <li role="presentation" class="sugg-group">
          {group}
        </li>
      )}
      <li
        id={`sugg-${index}`}
        role="option"
        aria-selected={active}
        class={active ? 'active' : ''}
        onMouseDown={(e) => {
          e.preventDefault();
          onAccept();
        }}
      >
        <Icon name={MENTION_ICON[candidate.kind] ?? 'file'} />
        <span class="sugg-label">{candidate.label}</span>
        {candidate.detail && <span class="sugg-detail">{candidate.detail}</span>}
      </li>
    </>
  );
}
