// The session history panel: past sessions (searched by title or agent) to open, resume or delete.
import { useState } from 'preact/hooks';
import type { HistoryItem } from '../../../src/shared/chatState';
import { rankByFuzzy } from '../../../src/shared/fuzzy';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** Fuzzy search over title and agent; the best matches first, the original order otherwise. */
function filterHistory(items: readonly HistoryItem[], query: string): HistoryItem[] {
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
