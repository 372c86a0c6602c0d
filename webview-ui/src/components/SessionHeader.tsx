// The active session's header: title (renamable), fork, the agent's status and account, the context meter,
// rate limits and standing instructions.
import { useState } from 'preact/hooks';
import type { AgentView } from '../../../src/shared/chatState';
import type { SessionState } from '../store';
import { formatTokens } from './format';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { InstructionsBadge } from './InstructionsBadge';
import { RateLimits } from './RateLimits';
import { TitleEditor } from './TitleEditor';

const STATUS_ICON: Record<string, { icon: string; spin?: boolean }> = {
  ready: { icon: 'pass' },
  starting: { icon: 'loading', spin: true },
  stopped: { icon: 'circle-large-outline' },
  crashed: { icon: 'error' },
  auth_required: { icon: 'lock' },
};

export function SessionHeader({ session, agent }: { session: SessionState; agent: AgentView | undefined }) {
  const store = useStore();
  const [renaming, setRenaming] = useState(false);
  const sessionId = session.view.sessionId;
  const t = session.transcript;
  const title = session.view.title || t.title;
  const usage = t.usage;
  const st = STATUS_ICON[agent?.status ?? 'stopped'] ?? STATUS_ICON.stopped;
  const pct = usage && usage.size > 0 ? Math.min(100, (usage.used / usage.size) * 100) : 0;
  const cost = usage?.cost ? ` · ${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : '';
  return (
    <div class="session-header">
      {renaming ? (
        <TitleEditor sessionId={sessionId} title={title || ''} done={() => setRenaming(false)} />
      ) : (
        <h2 class="session-title">{title || 'Untitled session'}</h2>
      )}
      <button type="button" class="icon-button" aria-label="Rename session" title="Rename session" onClick={() => setRenaming(true)}>
        <Icon name="edit" />
      </button>
      {session.view.capabilities.fork && (
        <button type="button" class="icon-button" aria-label="Fork session" title="Fork session" onClick={() => store.post({ type: 'forkSession', sessionId })}>
          <Icon name="repo-forked" />
        </button>
      )}
      <span class={`agent-status status-${agent?.status ?? 'stopped'}`} title={agent?.detail}>
        <Icon name={st.icon} spin={st.spin} />
        {agent?.name ?? session.view.agentId} · {(agent?.status ?? 'stopped').replace('_', ' ')}
      </span>
      {agent?.account && (
        <span class="agent-account" title={agent.account.detail}>
          <Icon name="account" />
          {agent.account.label}
          {agent.account.signedIn !== false && (
            <button type="button" class="link-button" onClick={() => store.post({ type: 'logout', agentId: agent.id })}>
              Sign out
            </button>
          )}
        </span>
      )}
      {usage && (
        <span
          class="usage"
          role="meter"
          aria-label="Context usage"
          aria-valuemin={0}
          aria-valuemax={usage.size}
          aria-valuenow={usage.used}
          aria-valuetext={`${formatTokens(usage.used)} of ${formatTokens(usage.size)} tokens${cost}`}
        >
          <span class="usage-bar" aria-hidden="true">
            <span class="usage-fill" ref={(el) => {
                if (el) el.style.width = `${pct}%`;
              }} />
          </span>
          <span class="usage-text">
            {formatTokens(usage.used)} / {formatTokens(usage.size)}
            {cost}
          </span>
        </span>
      )}
      {t.rateLimits && t.rateLimits.length > 0 && <RateLimits windows={t.rateLimits} />}
      {session.view.instructions && <InstructionsBadge view={session.view.instructions} agentName={agent?.name ?? session.view.agentId} />}
    </div>
  );
}
