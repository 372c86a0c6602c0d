import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Draft } from '../store';
import { useStore } from './storeHooks';

/**
 * The composer's draft for the tab shown (`key`). The store's UI state owns it (it survives a reload; a
 * tab switch shows the other tab's), so handlers read it with `current()` at the time they run, not from
 * the last render. `setDraft` re-renders the composer; `typed` stores a keystroke's text without a render
 * unless `shown` says something on screen depends on it (the textarea already shows what was typed).
 * Add to Chat from the host lands in it and focuses `textarea`, with the notice of what was left out (kept
 * until dismissed or sent).
 */
export function useComposerDraft(key: string, textarea: RefObject<HTMLTextAreaElement | null>) {
  const store = useStore();
  const [, setVersion] = useState(0);
  const rerender = () => setVersion((n) => n + 1);
  const [notice, setNoticeState] = useState<string | undefined>(() => store.composerNotice);
  const setNotice = (n: string | undefined) => {
    setNoticeState(n);
    store.composerNotice = n;
  };
  const current = () => store.ui.draft(key);

  const setDraft = (d: Draft) => {
    store.ui.setDraft(key, d);
    rerender();
  };

  /** The textarea's text after a keystroke; renders only when `shown(before, after)` says it must. */
  const typed = (text: string, shown: (before: string, after: string) => boolean) => {
    const before = current();
    store.ui.setDraft(key, { ...before, text });
    if (shown(before.text, text)) rerender();
  };

  useEffect(() => {
    // Chips the store took between this composer's render and now (a webview that just loaded gets them
    // right after its init) would otherwise wait for the next request.
    rerender();
    setNoticeState(store.composerNotice);
    return store.onComposerRequest(() => {
      rerender();
      setNotice(store.composerNotice);
      textarea.current?.focus();
    });
  }, [store, key]);

  return { draft: current(), current, setDraft, typed, notice, setNotice };
}
