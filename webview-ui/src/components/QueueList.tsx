// The messages queued while the agent works: each editable, sent now or removed before the turn ends.
import type { QueuedMessage } from '../../../src/shared/chatState';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

export function QueueList({ sessionId, queue }: { sessionId: string; queue: QueuedMessage[] }) {
  const store = useStore();
  if (!queue.length) return null;
  return (
    <section class="queue" aria-label="Queued messages">
      <div class="queue-title muted">Queued — sent when the agent finishes</div>
      <ol>
        {queue.map((q, i) => (
          <li key={q.id} class="queue-item">
            <textarea
              aria-label={`Queued message ${i + 1}`}
              rows={1}
              value={q.text}
              onChange={(e) => store.post({ type: 'queueEdit', sessionId, queueId: q.id, text: (e.currentTarget as HTMLTextAreaElement).value })}
            />
            <button type="button" class="secondary-button" onClick={() => store.post({ type: 'queueSendNow', sessionId, queueId: q.id })}>
              Send now
            </button>
            <button type="button" class="icon-button" aria-label={`Remove queued message ${i + 1}`} onClick={() => store.post({ type: 'queueRemove', sessionId, queueId: q.id })}>
              <Icon name="trash" />
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
