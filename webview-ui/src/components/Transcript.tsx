import { useMemo, useRef } from 'preact/hooks';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { useTranscriptFind } from '../find/useTranscriptFind';
import type { SessionState } from '../store';
import { sizeClass } from '../virtual/sizeClass';
import { useVirtualList } from '../virtual/useVirtualList';
import { useStore } from './storeHooks';
import { ElicitationCard } from './Elicitation';
import { FindBar } from './FindBar';
import { TranscriptItemView } from './Items';
import { PermissionCard } from './PermissionCard';
import { placePermissions } from './permissionPlaces';

function lastUserMessageId(items: readonly TranscriptItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === 'user_message') return items[i].id;
  return undefined;
}

/**
 * The transcript: `role="log"`, virtualized (useVirtualList: only the items near the viewport are in the
 * DOM), with find in the session and jumps between prompts (useTranscriptFind). Items are keyed by id and
 * memoised, so a streamed chunk re-renders one item.
 */
export function Transcript({ session }: { session: SessionState }) {
  const store = useStore();
  const ref = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLDivElement>(null);
  const after = useRef<HTMLDivElement>(null);
  const { view, transcript } = session;
  const items = transcript.items;
  const ids = useMemo(() => items.map((i) => i.id), [items]);
  const classes = useMemo(() => items.map(sizeClass), [items]);
  // A new message from the user (sent, or a loaded session's last) brings the view back to the end. Looked up
  // once per items array: a long session without prompts near its end would be walked on every scroll render.
  const lastUser = useMemo(() => lastUserMessageId(items), [items]);
  const list = useVirtualList(view.sessionId, ids, classes, lastUser, ref, area, after);
  const find = useTranscriptFind(items, list, ref, area);
  const rendered = items.slice(list.range.start, list.range.end);
  const { inCard, inNest, standalone } = placePermissions(view.permissions, rendered);

  // One delegated listener for sanitised Markdown: links go to the host, code buttons post code.
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    if (!target || typeof target.closest !== 'function') return;
    const md = target.closest('.md');
    if (!md) return;
    const button = target.closest('button[data-code-action]');
    if (button) {
      e.preventDefault();
      const block = button.closest('.code-block');
      const code = block?.querySelector('pre code')?.textContent ?? '';
      const lang = block?.getAttribute('data-lang') || undefined;
      const action = button.getAttribute('data-code-action');
      if (action === 'copy') store.post({ type: 'copyCode', code });
      else if (action === 'insert') store.post({ type: 'insertCode', code });
      else if (action === 'open') store.post(lang ? { type: 'openCode', code, language: lang } : { type: 'openCode', code });
      return;
    }
    const a = target.closest('a');
    if (a) {
      e.preventDefault();
      const href = a.getAttribute('href');
      if (href) store.post({ type: 'openLink', href });
    }
  };

  return (
    <>
      {find.bar && <FindBar {...find.bar} />}
      <div
        class="transcript"
        ref={ref}
        role="log"
        aria-live="polite"
        aria-label="Transcript"
        onScroll={list.onScroll}
        onClick={onClick}
      >
        <div class="transcript-content">
          {items.length === 0 && !view.loading && <div class="empty-transcript muted">Ask the agent anything. Type @ to mention files, / for commands.</div>}
          {/* Items scrolled into the DOM are old news: only at the end are additions announced. */}
          <div class="virtual-items" ref={area} aria-live={list.stuck ? undefined : 'off'}>
            <div class="virtual-spacer" style={{ height: `${list.padTop}px` }} aria-hidden="true" />
            {rendered.map((item) => (
              <div class="item" key={item.id} data-kind={item.kind} data-item-id={item.id} data-size-class={sizeClass(item)}>
                <TranscriptItemView
                  item={item}
                  sessionId={view.sessionId}
                  permission={item.kind === 'tool_call' ? inCard.get(item.toolCallId) : undefined}
                  permissions={inNest.get(item.id)}
                  reveal={find.reveal?.itemId === item.id ? find.reveal : undefined}
                />
              </div>
            ))}
            <div class="virtual-spacer" style={{ height: `${list.padBottom}px` }} aria-hidden="true" />
          </div>
          <div class="transcript-after" ref={after}>
            {view.loading && <div class="muted">Loading session…</div>}
            {view.turn !== 'idle' && (
              <div class="working muted" aria-hidden="true">
                <span class="codicon codicon-loading codicon-modifier-spin" /> {view.turn === 'cancelling' ? 'Stopping…' : 'Working…'}
              </div>
            )}
            {standalone.map((p) => (
              <PermissionCard key={p.requestId} request={p} sessionId={view.sessionId} />
            ))}
            {view.elicitations.map((el) => (
              <ElicitationCard key={el.requestId} request={el} sessionId={view.sessionId} />
            ))}
          </div>
        </div>
      </div>
      <div class="visually-hidden" role="status">
        {find.promptStatus}
      </div>
    </>
  );
}
