// The whole chat view: tabs and toolbar, history, agent banners, the active session (header, transcript,
// changed files, queue) and the composer.
import { useStore, useStoreVersion } from './storeHooks';
import { AgentBanners } from './AgentBanners';
import { ChangedFiles } from './ChangedFiles';
import { Composer } from './Composer';
import { HistoryPanel } from './HistoryPanel';
import { QueueList } from './QueueList';
import { SessionErrorBanner } from './SessionErrorBanner';
import { SessionHeader } from './SessionHeader';
import { SessionPickers } from './SessionPickers';
import { SessionTabs } from './SessionTabs';
import { ProviderSettings } from './ProviderSettings';
import { RestartToApply } from './RestartToApply';
import { Toolbar } from './Toolbar';
import { Transcript } from './Transcript';

export function Chat() {
  const store = useStore();
  useStoreVersion();
  const { initialized, toast } = store.state;
  const session = store.active;
  const agent = store.agent(store.selectedAgentId());
  // Another agent waiting for sign-in before it does what the user asked (e.g. a New session command).
  const waiting = store.state.agents.filter((a) => a !== agent && a.status === 'auth_required' && a.afterSignIn);
  return (
    <div class="chat">
      <header class="chat-header">
        <SessionTabs />
        <Toolbar />
      </header>
      <HistoryPanel />
      <AgentBanners agent={agent} />
      <RestartToApply agent={agent} />
      {waiting.map((a) => (
        <AgentBanners key={a.id} agent={a} />
      ))}
      <div class="session" id="session-panel" role={session ? 'tabpanel' : undefined} aria-labelledby={session ? `tab-${session.view.sessionId}` : undefined}>
        {!initialized && <div class="muted loading">Connecting…</div>}
        {session && <SessionHeader session={session} agent={agent} />}
        {session && <ProviderSettings agent={agent} />}
        {session && <SessionErrorBanner session={session} />}
        {session ? (
          // Keyed by session: item ids repeat across sessions (each numbers its own), and an item's component
          // keeps its rendered Markdown, so a tab switch must not reuse another session's components.
          <Transcript key={session.view.sessionId} session={session} />
        ) : (
          initialized && (
            <div class="transcript empty" role="log" aria-live="polite" aria-label="Transcript">
              <div class="empty-transcript muted">No session yet. Pick an agent and type a message, or choose New session.</div>
            </div>
          )
        )}
        {session && <ChangedFiles sessionId={session.view.sessionId} files={session.view.changedFiles} />}
        {session && <QueueList sessionId={session.view.sessionId} queue={session.view.queue} />}
        <div class="composer-area">
          {session && <SessionPickers session={session} />}
          {/* While a session the user asked for starts, the composer writes to it: its own draft, no Stop. */}
          {store.startingSession && (
            <div class="muted starting-session" role="status">
              Starting a new session{agent ? ` with ${agent.name}` : ''}: your message goes there.
            </div>
          )}
          <Composer session={store.startingSession ? undefined : session} />
        </div>
      </div>
      <div class="toast" role="status" aria-live="polite">
        {toast ?? ''}
      </div>
    </div>
  );
}
