// How components reach the webview's store: it is provided once by App and read with useStore.
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { ChatStore } from '../store';

export const StoreContext = createContext<ChatStore | undefined>(undefined);

export function useStore(): ChatStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('ChatStore missing');
  return s;
}

/** Re-render the calling component whenever the store notifies (once per frame at most). */
export function useStoreVersion(): number {
  const store = useStore();
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((x) => x + 1)), [store]);
  return store.version;
}
