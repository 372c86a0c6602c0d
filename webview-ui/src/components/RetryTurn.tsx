import type { SessionState } from '../store';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** "Retry" on a failed turn's error: the host sends the same prompt, attachments included, again. */
export function RetryTurn({ session }: { session: SessionState }) {
  const store = useStore();
  if (!session.view.error?.retryable) return null;
  return (
    <button type="button" class="primary-button" onClick={() => store.post({ type: 'retry', sessionId: session.view.sessionId })}>
      <Icon name="refresh" /> Retry
    </button>
  );
}
