// The composer's notice of what Add to Chat could not add, with a button to dismiss it.
import { Icon } from './Icon';

/** Why something given to Add to Chat was not added; stays until dismissed or the message is sent. */
export function ComposerNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div class="composer-notice" role="alert">
      <Icon name="info" />
      <span>{text}</span>
      <button type="button" class="icon-button" aria-label="Dismiss notice" onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
