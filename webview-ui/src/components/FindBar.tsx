import { useEffect, useRef } from 'preact/hooks';
import { MAX_MATCHES } from '../find/transcriptSearch';
import { Icon } from './Icon';

export interface FindBarProps {
  query: string;
  /** Matches counted in the whole transcript, and the current one (from 0; -1: none yet). */
  count: number;
  current: number;
  /** Asks to focus the box (and select its text), each time this number changes. */
  focusRequest: number;
  onQuery(query: string): void;
  onStep(direction: 1 | -1): void;
  onClose(): void;
}

function statusText(query: string, count: number, current: number): string {
  if (!query) return 'Type to find in the whole session';
  if (count === 0) return 'No results';
  const total = count >= MAX_MATCHES ? `${MAX_MATCHES.toLocaleString('en')}+` : count.toLocaleString('en');
  return current >= 0 ? `${(current + 1).toLocaleString('en')} of ${total}` : `${total} results`;
}

/** Find in the session (Ctrl+F): the box, the count, previous / next, close (Escape). */
export function FindBar({ query, count, current, focusRequest, onQuery, onStep, onClose }: FindBarProps) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusRequest]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === 'F3') {
      e.preventDefault();
      onStep(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    }
  };
  return (
    <div class="find-bar" role="search" aria-label="Find in session">
      <input
        ref={input}
        type="search"
        class="find-input"
        aria-label="Find in session"
        placeholder="Find in session"
        value={query}
        onInput={(e) => onQuery((e.currentTarget as HTMLInputElement).value)}
        onKeyDown={onKeyDown}
      />
      <span class={`find-count muted${query && count === 0 ? ' find-none' : ''}`} role="status" aria-live="polite">
        {statusText(query, count, current)}
      </span>
      <button type="button" class="icon-button" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={count === 0} onClick={() => onStep(-1)}>
        <Icon name="arrow-up" />
      </button>
      <button type="button" class="icon-button" aria-label="Next match" title="Next match (Enter)" disabled={count === 0} onClick={() => onStep(1)}>
        <Icon name="arrow-down" />
      </button>
      <button type="button" class="icon-button" aria-label="Close find" title="Close (Escape)" onClick={onClose}>
        <Icon name="close" />
      </button>
    </div>
  );
}
