import { MentionOption } from './MentionOption';
import type { Suggestion } from './useSuggestions';

export const SUGGESTIONS_ID = 'composer-suggestions';

/** The composer's completion list (a listbox the textarea controls; the highlighted option is its active descendant). */
export function ComposerSuggestions(props: { kind: 'command' | 'mention'; suggestions: Suggestion[]; activeIndex: number; onAccept(s: Suggestion): void }) {
  const { suggestions, activeIndex, onAccept } = props;
  return (
    <ul class="suggestions" id={SUGGESTIONS_ID} role="listbox" aria-label={props.kind === 'command' ? 'Commands' : 'Mentions'}>
      {suggestions.map((s, i) => {
        if (s.kind === 'mention') {
          const previous = suggestions[i - 1];
          return (
            <MentionOption
              key={`${s.candidate.kind}:${s.candidate.uri}:${s.candidate.range?.startLine ?? ''}`}
              candidate={s.candidate}
              previous={previous?.kind === 'mention' ? previous.candidate : undefined}
              index={i}
              active={i === activeIndex}
              onAccept={() => onAccept(s)}
            />
          );
        }
        return (
          <li
            key={s.command.name}
            id={`sugg-${i}`}
            role="option"
            aria-selected={i === activeIndex}
            class={i === activeIndex ? 'active' : ''}
            onMouseDown={(e) => {
              e.preventDefault();
              onAccept(s);
            }}
          >
            <span class="sugg-label">/{s.command.name}</span>
            <span class="sugg-detail">{s.command.description}</span>
          </li>
        );
      })}
    </ul>
  );
}
