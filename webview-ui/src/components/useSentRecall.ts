import { useRef } from 'preact/hooks';
import { useStore } from './storeHooks';

/**
 * Up in an empty composer, or at the start of a message it recalled, brings back the messages sent before,
 * newest first (the store's UI state keeps them). Typing ends the recall.
 */
export function useSentRecall() {
  const store = useStore();
  const index = useRef<number | undefined>(undefined);
  return {
    /** The earlier message to show, or undefined when Up should move the caret as usual. */
    previous(text: string, caretAtStart: boolean): string | undefined {
      const sent = store.ui.sent;
      const recalling = index.current !== undefined;
      if (!sent.length || !(text === '' || (recalling && caretAtStart))) return undefined;
      const i = recalling ? Math.max(0, index.current! - 1) : sent.length - 1;
      index.current = i;
      return sent[i];
    },
    reset(): void {
      index.current = undefined;
    },
  };
}
