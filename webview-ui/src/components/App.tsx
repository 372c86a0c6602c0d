// The webview's root: the store given to every component (StoreContext) around the chat.
import type { ChatStore } from '../store';
import { StoreContext } from './storeHooks';
import { Chat } from './Chat';

export function App({ store }: { store: ChatStore }) {
  return (
    <StoreContext.Provider value={store}>
      <Chat />
    </StoreContext.Provider>
  );
}
