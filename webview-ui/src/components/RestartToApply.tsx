// The banner of an agent whose launch settings (command, args, env, URL, headers) changed while it runs: it
// still runs with the earlier ones until it restarts, which the banner offers.
import type { AgentView } from '../../../src/shared/chatState';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

export function RestartToApply({ agent }: { agent: AgentView | undefined }) {
  const store = useStore();
  const changed = agent?.settingsToApply ?? [];
  if (!agent || changed.length === 0) return null;
  const verb = agent.remote ? 'Reconnect' : 'Restart';
  return (
    <div class="banner banner-info" role="status">
      <div class="banner-title">
        <Icon name="info" />
        {agent.name}'s settings changed ({changed.join(', ')}): it still runs with the earlier ones until it {agent.remote ? 'reconnects' : 'restarts'}.
      </div>
      <div class="banner-actions">
        <button type="button" class="primary-button" onClick={() => store.post({ type: 'restartAgent', agentId: agent.id })}>
          <Icon name="debug-restart" />
          {verb} {agent.name} to apply
        </button>
      </div>
    </div>
  );
}
