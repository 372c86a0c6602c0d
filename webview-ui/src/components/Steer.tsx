import type { SessionState } from '../store';
import { Icon } from './Icon';

/**
 * While a turn runs in a session whose agent steers: what Enter does (`switchboard.enterWhileRunning`).
 * Undefined otherwise (idle, or an agent without steering: messages are queued).
 */
export function steeringNow(session: SessionState | undefined): 'queue' | 'steer' | undefined {
  if (!session || session.view.turn !== 'running' || !session.view.capabilities.steering) return undefined;
  return session.view.enterWhileRunning ?? 'queue';
}

/** The composer's hint while the agent works: which key or button queues and which steers. */
export function workingPlaceholder(enter: 'queue' | 'steer' | undefined): string {
  if (enter === 'steer') return 'The agent is working — Enter steers it with your message, Send queues it';
  if (enter === 'queue') return 'The agent is working — Enter queues your message, Steer sends it into the running turn';
  return 'The agent is working — messages are queued';
}

/** "Steer": sends the message into the running turn instead of queueing it. */
export function SteerButton({ enter, onSteer }: { enter: 'queue' | 'steer'; onSteer: () => void }) {
  return (
    <button
      type="button"
      class="secondary-button"
      onClick={onSteer}
      title={enter === 'steer' ? 'Send into the running turn (Enter)' : 'Send into the running turn now instead of queueing it'}
    >
      <Icon name="arrow-right" />
      Steer
    </button>
  );
}
