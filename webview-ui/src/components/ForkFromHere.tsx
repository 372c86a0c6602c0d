// "Fork from here" on a user message, offered only when the agent can fork sessions.
import { Icon } from './Icon';
import { useStore, useStoreVersion } from './storeHooks';

/** Offered where the agent can fork: the new tab shows the transcript up to this message's turn. */
export function ForkFromHere({ sessionId, itemId }: { sessionId: string; itemId: string }) {
  const store = useStore();
  useStoreVersion();
  if (!store.state.sessions.get(sessionId)?.view.capabilities.fork) return null;
  return (
    <button
      type="button"
      class="icon-button fork-from-here"
      aria-label="Fork from here"
      title="Fork from here: a new tab with the conversation up to this message's answer"
      onClick={() => store.post({ type: 'forkSession', sessionId, fromItemId: itemId })}
    >
      <Icon name="repo-forked" />
    </button>
  );
}
