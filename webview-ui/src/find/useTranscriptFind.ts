// Find in the session and jumps between the user's prompts, over the whole transcript model: a match or a
// prompt far above what is rendered is revealed by scrolling the virtual list to its item, then the
// matches in the rendered items are painted (highlight.ts).
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { TranscriptItem } from '../../../src/shared/transcript';
import type { FindBarProps } from '../components/FindBar';
import type { VirtualList } from '../virtual/useVirtualList';
import { paintMatches, rangesOf } from './highlight';
import { type FindMatch, findMatches, type NestReveal, nestsOfMatch, promptIndexes, sectionOfMatch } from './transcriptSearch';

/** A revealed item sits this far below the viewport's top (px). */
const REVEAL_MARGIN = 4;
/** A prompt this close (px) to where a revealed one sits counts as the one at the top for Alt+Up / Alt+Down. */
const AT_TOP = 12;

export interface TranscriptFind {
  /** The find bar's props while it is open. */
  bar?: FindBarProps;
  /** What the last prompt jump said (for a screen reader's status region). */
  promptStatus: string;
  /** The current match's item and the subagents to open for it; a new object each time find moves. */
  reveal?: NestReveal;
}

interface FindState {
  open: boolean;
  query: string;
  current: number;
  focus: number;
  reveal?: NestReveal;
}

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

export function useTranscriptFind(items: readonly TranscriptItem[], list: VirtualList, scroller: RefObject<HTMLElement | null>, area: RefObject<HTMLElement | null>): TranscriptFind {
  const [find, setFind] = useState<FindState>({ open: false, query: '', current: -1, focus: 0 });
  const [promptStatus, setPromptStatus] = useState('');
  const matches = useMemo<FindMatch[]>(() => (find.open && find.query ? findMatches(items, find.query) : []), [items, find.open, find.query]);
  /** Set when the current match moved: the next layout scrolls its text into view. */
  const pendingReveal = useRef(false);
  const current = find.current < matches.length ? find.current : matches.length - 1;

  /** Where match `m` of `query` is: its item, and the subagents and the section that must open to show it. */
  const revealOf = (m: FindMatch, query: string): NestReveal | undefined => {
    const item = items[m.index];
    const section = item && sectionOfMatch(item, query, m.occurrence);
    return item && { itemId: item.id, nests: nestsOfMatch(item, query, m.occurrence), ...(section ? { section } : {}) };
  };

  const go = (index: number) => {
    const m = matches[index];
    if (!m) return;
    pendingReveal.current = true;
    list.reveal(m.index, (scroller.current?.clientHeight ?? 0) / 3);
    setFind((f) => ({ ...f, current: index, reveal: revealOf(m, f.query) }));
  };

  const jumpToPrompt = (direction: 1 | -1) => {
    const prompts = promptIndexes(items);
    // Above or below where a revealed prompt sits; one within AT_TOP of it is the one at the top.
    const line = list.position() + REVEAL_MARGIN;
    const at = direction < 0 ? findLast(prompts, (p) => list.itemTop(p) < line - AT_TOP) : prompts.find((p) => list.itemTop(p) > line + AT_TOP);
    if (at === undefined) {
      setPromptStatus(prompts.length === 0 ? 'No prompts in this session' : direction < 0 ? 'No earlier prompt' : 'No later prompt');
      return;
    }
    list.reveal(at, REVEAL_MARGIN);
    setPromptStatus(`Prompt ${prompts.indexOf(at) + 1} of ${prompts.length}`);
  };

  // Ctrl+F (Cmd+F) opens find; Alt+Up / Alt+Down jump to the previous / next prompt. Captured before the
  // composer, whose arrow keys recall sent messages.
  const keys = useRef<((e: KeyboardEvent) => void) | undefined>(undefined);
  keys.current = (e: KeyboardEvent) => {
    if ((isMac ? e.metaKey : e.ctrlKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      e.stopPropagation();
      setFind((f) => ({ ...f, open: true, focus: f.focus + 1 }));
    } else if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      e.stopPropagation();
      jumpToPrompt(e.key === 'ArrowUp' ? -1 : 1);
    }
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => keys.current?.(e);
    document.addEventListener('keydown', listener, true);
    return () => document.removeEventListener('keydown', listener, true);
  }, []);

  // Paint the matches in the rendered items; after a move, bring the current one's text into view.
  useLayoutEffect(() => {
    const box = area.current;
    if (!find.open || !find.query || !box) {
      paintMatches([], undefined);
      return;
    }
    const all = rangesOf(box, find.query);
    const m = matches[current];
    let mine: Range | undefined;
    if (m) {
      const id = items[m.index]?.id;
      const el = Array.from(box.children).find((c) => (c as HTMLElement).dataset?.itemId === id);
      if (el) {
        const inItem = all.filter((r) => el.contains(r.startContainer));
        mine = inItem[Math.min(m.occurrence, inItem.length - 1)];
      }
    }
    paintMatches(all, mine);
    if (!pendingReveal.current || !m) return;
    const el = scroller.current;
    if (!mine || !el || typeof mine.getBoundingClientRect !== 'function') return;
    pendingReveal.current = false;
    const r = mine.getBoundingClientRect();
    const view = el.getBoundingClientRect();
    if (r.top < view.top || r.bottom > view.bottom) el.scrollTop += r.top - view.top - el.clientHeight / 3;
  });
  useEffect(() => () => paintMatches([], undefined), []);

  const bar: FindBarProps | undefined = find.open
    ? {
        query: find.query,
        count: matches.length,
        current,
        focusRequest: find.focus,
        onQuery: (query) => {
          const next = findMatches(items, query);
          // The first match at or below what is on screen, as a browser's find does.
          const top = list.position();
          const first = next.findIndex((m) => list.itemTop(m.index + 1) > top);
          const target = next[Math.max(0, first)];
          setFind((f) => ({ ...f, query, current: next.length ? Math.max(0, first) : -1, reveal: target && revealOf(target, query) }));
          if (target) {
            pendingReveal.current = true;
            list.reveal(target.index, (scroller.current?.clientHeight ?? 0) / 3);
          }
        },
        onStep: (direction) => {
          if (!matches.length) return;
          go((current + direction + matches.length) % matches.length);
        },
        onClose: () => {
          setFind((f) => ({ ...f, open: false }));
          paintMatches([], undefined);
        },
      }
    : undefined;
  return { bar, promptStatus, reveal: find.open ? find.reveal : undefined };
}

function findLast<T>(xs: readonly T[], f: (x: T) => boolean): T | undefined {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i])) return xs[i];
  return undefined;
}
