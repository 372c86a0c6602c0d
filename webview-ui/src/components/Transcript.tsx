import { useEffect, useRef } from 'preact/hooks';
import type { PendingPermission } from '../../../src/shared/chatState';
import type { TranscriptItem } from '../../../src/shared/transcript';
import type { SessionState } from '../store';
import { useStore } from './common';
import { ElicitationCard } from './Elicitation';
import { TranscriptItemView } from './Items';
import { PermissionCard } from './Permission';

/**
 * At most this many items are mounted per frame when more arrive at once (a 2,000-message load, a tab
 * switch, "Show earlier"): mounting them all in one task blocks the webview for hundreds of ms.
 */
export const MOUNTS_PER_FRAME = 10;

/**
 * The items of the window to render now: those already mounted, plus up to `budget` new ones, newest
 * first (the bottom of a transcript stuck to the bottom is what the user sees). `deferred` says more wait.
 */
export function itemsToMount(window: readonly TranscriptItem[], mounted: ReadonlySet<string>, budget: number): { items: TranscriptItem[]; deferred: boolean } {
  const keep: boolean[] = new Array<boolean>(window.length);
  let deferred = false;
  for (let i = window.length - 1; i >= 0; i--) {
    if (mounted.has(window[i].id)) keep[i] = true;
    else if (budget > 0) {
      budget--;
      keep[i] = true;
    } else deferred = true;
  }
  return { items: deferred ? window.filter((_, i) => keep[i]) : window.slice(), deferred };
}

/**
 * Where each pending permission request shows: in the card of its tool call (the first request per tool
 * call), or, when that tool call is not rendered (unknown to the transcript, or above the window), in a
 * card of its own after the items, so its buttons are always on screen.
 */
function placePermissions(
  permissions: readonly PendingPermission[],
  rendered: readonly TranscriptItem[],
): { inCard: Map<string, PendingPermission>; standalone: PendingPermission[] } {
  const toolCalls = new Set(rendered.flatMap((i) => (i.kind === 'tool_call' ? [i.toolCallId] : [])));
  const inCard = new Map<string, PendingPermission>();
  const standalone: PendingPermission[] = [];
  for (const p of permissions) {
    if (p.toolCallId && toolCalls.has(p.toolCallId) && !inCard.has(p.toolCallId)) inCard.set(p.toolCallId, p);
    else standalone.push(p);
  }
  return { inCard, standalone };
}

function lastUserMessageId(items: readonly TranscriptItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === 'user_message') return items[i].id;
  return undefined;
}

/**
 * The transcript: `role="log"` + `aria-live="polite"`. Windowed: only the last N items are rendered
 * ("Show earlier messages" adds more), each with `content-visibility: auto`. Keyed by item id and
 * memoised, so a streamed chunk re-renders one item.
 */
export function Transcript({ session }: { session: SessionState }) {
  const store = useStore();
  const ref = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const { view, transcript } = session;
  const items = transcript.items;
  const shown = store.shownCount(view.sessionId);
  const start = Math.max(0, items.length - shown);
  const mounted = useRef<Set<string>>(new Set());
  const { items: rendered, deferred } = itemsToMount(items.slice(start), mounted.current, MOUNTS_PER_FRAME);
  mounted.current = new Set(rendered.map((i) => i.id));
  const { inCard, standalone } = placePermissions(view.permissions, rendered);
  // A new message from the user (sent, or a loaded session's last) brings the view back to the end.
  const lastUser = lastUserMessageId(items);
  const seenUser = useRef(lastUser);
  if (lastUser !== seenUser.current) {
    seenUser.current = lastUser;
    stick.current = true;
  }

  // More items wait: render again on the next frame (through the store, so tests drive frames).
  useEffect(() => {
    if (deferred) store.changed();
  });

  // Stuck to the bottom while the content grows: heights are read once the browser has laid the content out
  // (a ResizeObserver runs then), not in a layout effect, which would force a layout of the whole transcript
  // in the middle of each render.
  useEffect(() => {
    const el = ref.current;
    const inner = content.current;
    if (!el || !inner || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(inner);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const el = ref.current;
    if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
  };

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
    <div
      class="transcript"
      ref={ref}
      role="log"
      aria-live="polite"
      aria-label="Transcript"
      onScroll={onScroll}
      onClick={onClick}
    >
      <div class="transcript-content" ref={content}>
        {start > 0 && (
          <button type="button" class="show-earlier secondary-button" onClick={() => store.showEarlier(view.sessionId)}>
            Show earlier messages ({start} hidden)
          </button>
        )}
        {items.length === 0 && !view.loading && <div class="empty-transcript muted">Ask the agent anything. Type @ to mention files, / for commands.</div>}
        {view.loading && <div class="muted">Loading session…</div>}
        {rendered.map((item) => (
          <div class="item" key={item.id} data-kind={item.kind}>
            <TranscriptItemView item={item} sessionId={view.sessionId} permission={item.kind === 'tool_call' ? inCard.get(item.toolCallId) : undefined} />
          </div>
        ))}
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
  );
}
