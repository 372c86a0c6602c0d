// The active session's error banner: the message and its detail, with Retry and Dismiss.
import type { SessionState } from '../store';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { RetryTurn } from './RetryTurn';

export function SessionErrorBanner({ session }: { session: SessionState }) {
  const store = useStore();
  const err = session.view.error;
  if (!err) return null;
  return (
    <div class="banner banner-error" role="alert">
      <div class="banner-title">
        <Icon name="error" />
        {err.message}
      </div>
      {err.detail && <pre class="stderr">{err.detail}</pre>}
      <div class="banner-actions">
        <RetryTurn session={session} />
        <button type="button" class="secondary-button" onClick={() => store.post({ type: 'dismissError', sessionId: session.view.sessionId })}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
