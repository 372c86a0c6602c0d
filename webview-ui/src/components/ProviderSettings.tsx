// The agent's model provider settings in the chat: the providers it offers, each set in its own form.
import { useState } from 'preact/hooks';
import type { AgentProvidersView, AgentView, ProviderView } from '../../../src/shared/chatState';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { type Post, ProviderForm } from './ProviderForm';
import { useStore } from './storeHooks';

/** The agent's Model provider settings (unstable providers/*); shown only when the agent offers them. */
export function ProviderSettings({ agent }: { agent: AgentView | undefined }) {
  const store = useStore();
  const settings = agent?.providers;
  if (!agent || !settings) return null;
  const post: Post = (action) => store.post({ type: 'providerAction', agentId: agent.id, action });
  const summary = settings.providers?.map((p) => `${p.providerId}: ${p.current ? p.current.baseUrl : 'disabled'}`).join(', ');
  return (
    <section class="provider-settings" aria-label="Model provider">
      <Collapsible id={`providers-${agent.id}`} label={<span>Model provider{summary ? <span class="muted"> · {summary}</span> : null}</span>} ariaLabel="Model provider">
        {() => <ProviderList settings={settings} post={post} />}
      </Collapsible>
      {settings.error && (
        <div class="banner banner-error" role="alert">
          <div class="banner-title">
            <Icon name="error" />
            {settings.error}
          </div>
          <div class="banner-actions">
            <button type="button" class="secondary-button" onClick={() => post({ kind: 'dismiss' })}>
              Dismiss
            </button>
          </div>
        </div>
      )}
      {settings.notice && (
        <p class="provider-notice" role="status">
          <Icon name="pass" /> {settings.notice}
        </p>
      )}
    </section>
  );
}

function ProviderList({ settings, post }: { settings: AgentProvidersView; post: Post }) {
  const providers = settings.providers;
  return (
    <div class="provider-list">
      {!providers ? (
        <p class="muted">Reading the agent's providers…</p>
      ) : providers.length === 0 ? (
        <p class="muted">The agent lists no provider you can change.</p>
      ) : (
        <>
          <p class="muted">A change applies to sessions started after it. Header values are kept in VS Code's secret storage.</p>
          <ul>
            {providers.map((p) => (
              <ProviderRow key={p.providerId} provider={p} busy={settings.busy ?? false} post={post} />
            ))}
          </ul>
        </>
      )}
      <button type="button" class="secondary-button" disabled={settings.busy} onClick={() => post({ kind: 'refresh' })}>
        <Icon name="refresh" /> Refresh providers
      </button>
    </div>
  );
}

function ProviderRow({ provider: p, busy, post }: { provider: ProviderView; busy: boolean; post: Post }) {
  const [editing, setEditing] = useState(false);
  const saved = p.saved;
  return (
    <li class="provider" aria-label={`Provider ${p.providerId}`}>
      <div class="provider-line">
        <strong>{p.providerId}</strong>
        <span class="provider-current">{p.current ? `${p.current.apiType} · ${p.current.baseUrl}` : 'disabled'}</span>
        {p.required && <span class="muted">(required)</span>}
        <button type="button" class="secondary-button" aria-expanded={editing} aria-label={`Change ${p.providerId}`} onClick={() => setEditing(!editing)}>
          Change…
        </button>
        {!p.required && p.current && (
          <button type="button" class="secondary-button" disabled={busy} aria-label={`Disable ${p.providerId}`} onClick={() => post({ kind: 'disable', providerId: p.providerId })}>
            Disable
          </button>
        )}
      </div>
      {saved && (
        <p class="muted">
          Switchboard applies at each start:{' '}
          {'disabled' in saved ? 'disabled' : `${saved.apiType} · ${saved.baseUrl}${saved.headerNames.length > 0 ? ` with ${saved.headerNames.join(', ')}` : ''}`}
        </p>
      )}
      {/* Keyed by the kept choice: once a change is taken, the form starts again from it (stored headers kept). */}
      {editing && <ProviderForm key={JSON.stringify(saved ?? null)} provider={p} busy={busy} post={post} close={() => setEditing(false)} />}
    </li>
  );
}
