import { useEffect, useRef, useState } from 'preact/hooks';
import type { MentionCandidate, MentionRef } from '../../../src/shared/chatState';
import { labelThenDetail, rankByFuzzy } from '../../../src/shared/fuzzy';
import type { AvailableCommand } from '../../../src/shared/transcript';
import { groupMentions } from '../mentionGroups';
import type { Draft, SessionState } from '../store';
import { useStore } from './storeHooks';
import { findTrigger, type Trigger } from './composerTrigger';

export type Suggestion = { kind: 'command'; command: AvailableCommand } | { kind: 'mention'; candidate: MentionCandidate };

/** The most suggestions the completion list shows. */
const SUGGESTION_LIMIT = 30;
/** The most candidates of one `@` group the list shows. */
const PER_GROUP = 8;

let mentionRequestSeq = 0;

/**
 * The composer's completion list: the session's slash commands after `/`, the host's `@` candidates (asked
 * for as the query changes) after `@`, ranked for what is typed. Closed when the tab (`key`) changes.
 */
export function useSuggestions(session: SessionState | undefined, key: string) {
  const store = useStore();
  const [trigger, setTrigger] = useState<Trigger | undefined>();
  const [triggerKey, setTriggerKey] = useState(key);
  const [active, setActive] = useState(0);
  const [mentionResults, setMentionResults] = useState<MentionCandidate[]>([]);
  const lastMentionRequest = useRef(0);

  if (triggerKey !== key) {
    setTriggerKey(key);
    setTrigger(undefined);
  }

  useEffect(
    () =>
      store.onMentionResults((requestId, candidates) => {
        if (requestId === lastMentionRequest.current) setMentionResults(candidates);
      }),
    [store],
  );

  const commands = session?.transcript.commands ?? [];
  const suggestions: Suggestion[] = !trigger
    ? []
    : trigger.kind === 'command'
      ? rankByFuzzy(trigger.query, commands, (c) => [c.name, c.description], { limit: SUGGESTION_LIMIT }).map((command) => ({ kind: 'command' as const, command }))
      : // The host may still be answering an older query: rank its candidates for this one.
        groupMentions(rankByFuzzy(trigger.query, mentionResults, labelThenDetail), PER_GROUP, SUGGESTION_LIMIT).map((candidate) => ({ kind: 'mention' as const, candidate }));
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1));

  /** The text or the caret changed: find what is being completed, asking the host for new `@` candidates. */
  const update = (text: string, caret: number) => {
    const t = findTrigger(text, caret);
    if (t?.kind === 'mention' && (t.query !== trigger?.query || trigger?.kind !== 'mention')) {
      const requestId = ++mentionRequestSeq;
      lastMentionRequest.current = requestId;
      store.post({ type: 'mentionQuery', requestId, query: t.query, ...(session ? { sessionId: session.view.sessionId } : {}) });
    }
    if (t?.kind !== trigger?.kind || t?.query !== trigger?.query) setActive(0);
    setTrigger(t);
  };

  /** Moves the highlight down or up, wrapping around. */
  const move = (down: boolean) => {
    const n = suggestions.length;
    if (n > 0) setActive((activeIndex + (down ? 1 : n - 1)) % n);
  };

  return { trigger, suggestions, open: suggestions.length > 0, activeIndex, update, move, close: () => setTrigger(undefined) };
}

/** The draft with the completed `/command` or `@mention` in place of what was typed, and the caret after it. */
export function withSuggestion(draft: Draft, trigger: Trigger, caret: number, s: Suggestion): { draft: Draft; caret: number } {
  let insert: string;
  let mentions = draft.mentions;
  if (s.kind === 'command') insert = `/${s.command.name} `;
  else {
    insert = `@${s.candidate.label} `;
    const ref: MentionRef = { kind: s.candidate.kind, uri: s.candidate.uri, label: s.candidate.label, ...(s.candidate.range ? { range: s.candidate.range } : {}) };
    if (!mentions.some((m) => m.uri === ref.uri && m.range?.startLine === ref.range?.startLine)) mentions = [...mentions, ref];
  }
  const text = draft.text.slice(0, trigger.start) + insert + draft.text.slice(caret);
  return { draft: { ...draft, text, mentions }, caret: trigger.start + insert.length };
}
