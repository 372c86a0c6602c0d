// An agent's banner when it cannot take messages: stopped (its error output, Restart or Reconnect, the log)
// or waiting for sign-in (its sign-in methods).
import type { AgentView } from '../../../src/shared/chatState';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

export function AgentBanners({ agent }: { agent: AgentView | undefined }) {
  const store = useStore();
  if (!agent) return null;
  if (agent.status === 'crashed' && agent.crash) {
    const c = agent.crash;
    return (
      <div class="banner banner-error" role="alert">
        <div class="banner-title">
          <Icon name="error" />
          {agent.name} stopped: {c.message}
          {c.exitCode !== undefined && c.exitCode !== null ? ` (exit code ${c.exitCode})` : ''}
          {c.signal ? ` (signal ${c.signal})` : ''}
        </div>
        {c.stderrTail.length > 0 && (
          <pre class="stderr" tabIndex={0} aria-label="Last lines of the agent's error output">
            {c.stderrTail.join('\n')}
          </pre>
        )}
        <div class="banner-actions">
          <button type="button" class="primary-button" onClick={() => store.post({ type: 'restartAgent', agentId: agent.id })}>
            <Icon name="debug-restart" />
            {agent.remote ? 'Reconnect' : 'Restart'}
          </button>
          <button type="button" class="secondary-button" onClick={() => store.post({ type: 'showProtocolLog' })}>
            Show log
          </button>
        </div>
      </div>
    );
  }
  if (agent.status === 'auth_required') {
    return (
      <section class="banner banner-auth" role="region" aria-label={`Sign in to ${agent.name}`}>
        <div class="banner-title">
          <Icon name="lock" />
          {agent.name} needs you to sign in.
        </div>
        {agent.afterSignIn && <p class="muted">Signing in {agent.afterSignIn}.</p>}
        {agent.authError && (
          <p class="auth-error" role="alert">
            <Icon name="error" /> {agent.authError}
          </p>
        )}
        <ul class="auth-methods">
          {(agent.authMethods ?? []).map((m) => (
            <li key={m.id}>
              <button type="button" class="primary-button" onClick={() => store.post({ type: 'authenticate', agentId: agent.id, methodId: m.id })}>
                {m.name}
              </button>
              {m.description && <span class="muted"> {m.description}</span>}
              {m.vars && m.vars.length > 0 && <span class="muted"> ({m.vars.join(', ')})</span>}
            </li>
          ))}
          {!agent.authMethods?.length && <li class="muted">The agent did not list any sign-in method. Check its documentation, then Restart.</li>}
        </ul>
      </section>
    );
  }
  return null;
}
