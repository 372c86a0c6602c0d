// The session tabs above the chat: one per open session (busy and permission marks), arrow keys between
// them, double-click to rename, a close button each.
import { useState } from 'preact/hooks';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { TitleEditor } from './TitleEditor';

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
