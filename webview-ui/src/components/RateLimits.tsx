// The agent's rate-limit windows (5-hour, weekly...) beside the context meter, only when the agent
// reports them: how much of each window is used, when it resets, and a warning when it is close or hit.
import type { RateLimitWindow } from '../../../src/shared/transcript';

const LABELS: Record<string, string> = {
  five_hour: '5-hour',
  seven_day: 'Weekly',
  seven_day_opus: 'Weekly · Opus',
  seven_day_sonnet: 'Weekly · Sonnet',
  seven_day_overage_included: 'Weekly · with overage',
  overage: 'Overage',
};

export function windowLabel(window: string): string {
  return LABELS[window] ?? window.replace(/_/g, ' ');
}

/** "resets 15:30" today, else "resets Mon 15:30"; in the user's locale. */
export function resetText(resetsAt: number, now = Date.now()): string {
  const at = new Date(resetsAt);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const sameDay = new Date(now).toDateString() === at.toDateString();
  return sameDay ? `resets ${time}` : `resets ${at.toLocaleDateString(undefined, { weekday: 'short' })} ${time}`;
}

function windowText(w: RateLimitWindow): string {
  const used = w.utilization !== undefined ? `${Math.round(w.utilization * 100)}%` : w.status === 'rejected' ? 'limit reached' : '';
  const parts = [windowLabel(w.window), used, w.resetsAt !== undefined ? resetText(w.resetsAt) : ''].filter(Boolean);
  return parts.join(' ');
}

export function RateLimits({ windows }: { windows: readonly RateLimitWindow[] }) {
  return (
    <span class="rate-limits" role="group" aria-label="Rate limits">
      {windows.map((w) => (
        <span key={w.window} class={`rate-limit status-${w.status === 'rejected' ? 'rejected' : w.status === 'allowed_warning' ? 'warning' : 'ok'}`} title={w.status.replace(/_/g, ' ')}>
          {windowText(w)}
        </span>
      ))}
    </span>
  );
}
