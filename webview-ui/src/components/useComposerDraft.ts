import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Draft } from '../store';
import { useStore } from './storeHooks';

/**
 * The composer's draft for the tab shown (`key`), kept in the store's UI state so it survives a reload;
 * switching tabs swaps it. Add to Chat from the host lands in it and focuses `textarea`, with the notice
 * of what was left out (kept until dismissed or sent).
 */
export function useComposerDraft(key: string, textarea: RefObject<HTMLTextAreaElement | null>) {
  const store = useStore();
  const [draft, setDraftState] = useState<Draft>(() => store.ui.draft(key));
  const [draftKey, setDraftKey] = useState(key);
  const [notice, setNoticeState] = useState<string | undefined>(() => store.composerNotice);
  const setNotice = (n: string | undefined) => {
    setNoticeState(n);
    store.composerNotice = n;
  };

  if (draftKey !== key) {
    setDraftKey(key);
    setDraftState(store.ui.draft(key));
  }

  const setDraft = (d: Draft) => {
    setDraftState(d);
    store.ui.setDraft(key, d);
  };

  useEffect(() => {
    // Chips the store took between this composer's render and now (a webview that just loaded gets them
    // right after its init) would otherwise wait for the next request.
    const stored = store.ui.draft(key);
    if (stored.mentions.length !== draft.mentions.length || stored.text !== draft.text) setDraftState(stored);
    setNoticeState(store.composerNotice);
    return store.onComposerRequest(() => {
      setDraftState(store.ui.draft(key));
      setNotice(store.composerNotice);
      textarea.current?.focus();
    });
  }, [store, key]);

  return { draft, setDraft, notice, setNotice };
}
