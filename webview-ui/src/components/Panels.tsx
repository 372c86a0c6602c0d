import { useState } from 'preact/hooks';
import type { AgentView, HistoryItem, QueuedMessage } from '../../../src/shared/chatState';
import { rankByFuzzy } from '../../../src/shared/fuzzy';
import type { SessionState } from '../store';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { TitleEditor } from './TitleEditor';
import { RetryTurn } from './RetryTurn';

export function SessionTabs() {
  const store = useStore();
  const [renaming, setRenaming] = useState<string | undefined>(undefined);
  const { order, sessions, activeSessionId } = store.state;
  if (!order.length) return null;
  const select = (id: string) => store.selectSession(id);
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % order.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + order.length) % order.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = order.length - 1;
    if (next < 0) return;
    e.preventDefault();
    select(order[next]);
    (document.getElementById(`tab-${order[next]}`) as HTMLElement | null)?.focus();
  };
  return (
    <div class="tabs" role="tablist" aria-label="Sessions">
      {order.map((id, i) => {
        const s = sessions.get(id);
        if (!s) return null;
        const title = s.view.title || s.transcript.title || s.view.agentId;
        const selected = id === activeSessionId;
        if (renaming === id) return (
          <div key={id} class={`tab${selected ? ' selected' : ''}`}>
            <TitleEditor sessionId={id} title={title} done={() => setRenaming(undefined)} />
          </div>
        );
        return (
          <div key={id} class={`tab${selected ? ' selected' : ''}`}>
            <button
              type="button"
              role="tab"
              id={`tab-${id}`}
              aria-selected={selected}
              aria-controls="session-panel"
              tabIndex={selected ? 0 : -1}
              onClick={() => select(id)}
              onDblClick={() => setRenaming(id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              title={title}
            >
              {s.view.turn !== 'idle' && <Icon name="loading" spin />}
              {s.view.permissions.length > 0 && <Icon name="shield" label="Needs permission" />}
              <span class="tab-title">{title}</span>
            </button>
            <button
              type="button"
              class="icon-button tab-close"
              aria-label={`Close session ${title}`}
              onClick={() => store.post({ type: 'closeSession', sessionId: id })}
            >
              <Icon name="close" />
            </button>
          </div>
        );
      })}
    </div>
  );
}

/** The Agent picker's last entry, which opens the ACP Registry list (no agent name can be this). */
const ADD_AGENT = '\u0000add-agent';

/** Only an image data: URI the host made from a checked icon; an <img> never runs an SVG's script anyway. */
const agentIcon = (icon: string | undefined) => (icon && /^data:image\/(svg\+xml|png);base64,[A-Za-z0-9+/=]+$/.test(icon) ? icon : undefined);

export function Toolbar() {
  const store = useStore();
  const agents = store.state.agents;
  const agentId = store.selectedAgentId();
  const icon = agentIcon(agents.find((a) => a.id === agentId)?.icon);
  return (
    <div class="toolbar">
      {icon && <img src={icon} alt="" width={16} height={16} />}
      <select
        aria-label="Agent"
        value={agentId ?? ''}
        onChange={(e) => {
          const select = e.currentTarget as HTMLSelectElement;
          if (select.value === ADD_AGENT) {
            // Not an agent: open the registry list and keep showing the agent that was chosen.
            select.value = agentId ?? '';
            store.post({ type: 'addAgentFromRegistry' });
            return;
          }
          // Choosing another agent than the active session's starts a session with it.
          store.pickAgent(select.value);
        }}
      >
        {!agents.length && <option value="">No agents configured</option>}
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
        <option value={ADD_AGENT}>Add agent…</option>
      </select>
      <button type="button" class="secondary-button" onClick={() => store.newSession(agentId)}>
        <Icon name="add" />
        New session
      </button>
      <button
        type="button"
        class="icon-button"
        aria-label="History"
        aria-expanded={store.ui.historyOpen}
        aria-controls="history-panel"
        title="Session history"
        onClick={() => {
          const open = !store.ui.historyOpen;
          store.setHistoryOpen(open);
          if (open) store.post({ type: 'refreshHistory' });
        }}
      >
        <Icon name="history" />
      </button>
    </div>
  );
}


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

/** Fuzzy search over title and agent; the best matches first, the original order otherwise. */
export function filterHistory(items: readonly HistoryItem[], query: string): HistoryItem[] {
  return rankByFuzzy(query, items, (h) => [h.title || h.sessionId, h.agentId], { laterFieldPenalty: 0 });
}

export function HistoryPanel() {
  const store = useStore();
  const [query, setQuery] = useState('');
  if (!store.ui.historyOpen) return null;
  const { history: all, historyLoading } = store.state;
  const history = filterHistory(all, query);
  return (
    <section class="history" id="history-panel" aria-label="Session history">
      <div class="history-header">
        <span>History</span>
        <button type="button" class="icon-button" aria-label="Refresh history" onClick={() => store.post({ type: 'refreshHistory' })}>
          <Icon name="refresh" spin={historyLoading} />
        </button>
      </div>
      {all.length > 0 && (
        <input
          type="search"
          class="history-search"
          aria-label="Search history"
          placeholder="Search by title or agent"
          value={query}
          onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
        />
      )}
      {all.length === 0 && <div class="muted">{historyLoading ? 'Loading…' : 'No past sessions.'}</div>}
      {all.length > 0 && history.length === 0 && <div class="muted">No session matches “{query}”.</div>}
      <ul>
        {history.map((h) => (
          <li key={h.id} class="history-item">
            <div class="history-text">
              <span class="history-title">{h.title || h.sessionId}</span>
              <span class="muted">
                {h.agentId}
                {h.updatedAt ? ` · ${new Date(h.updatedAt).toLocaleString()}` : ''}
                {h.source === 'agent' ? ' · from agent' : ''}
              </span>
            </div>
            {h.canLoad && (
              <button type="button" class="secondary-button" aria-label={`Open ${h.title || h.sessionId}`} onClick={() => store.post({ type: 'openHistory', historyId: h.id, mode: 'load' })}>
                Open
              </button>
            )}
            {h.canResume && (
              <button type="button" class="secondary-button" aria-label={`Resume ${h.title || h.sessionId}`} onClick={() => store.post({ type: 'openHistory', historyId: h.id, mode: 'resume' })}>
                Resume
              </button>
            )}
            {h.canDelete && (
              <button type="button" class="icon-button" aria-label={`Delete ${h.title || h.sessionId}`} onClick={() => store.post({ type: 'deleteHistory', historyId: h.id })}>
                <Icon name="trash" />
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
