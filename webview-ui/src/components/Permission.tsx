import type { PendingPermission } from '../../../src/shared/chatState';
import type { ToolCallContentItem } from '../../../src/shared/transcript';
import { Icon } from './Icon';
import { useStore } from './storeHooks';
import { KIND_ICON, Locations, ToolContent } from './ToolCall';

const OPTION_ICON: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

/** One real <button> per option, named exactly by the option's name. */
function PermissionOptions({ request, sessionId }: { request: PendingPermission; sessionId: string }) {
  const store = useStore();
  return (
    <div class="permission-options">
      {request.options.map((o) => (
        <button
          key={o.optionId}
          type="button"
          class={`permission-option kind-${o.kind}${o.kind.startsWith('allow') ? ' primary-button' : ' secondary-button'}`}
          onClick={() => store.post({ type: 'permissionAnswer', sessionId, requestId: request.requestId, answer: { optionId: o.optionId } })}
        >
          <Icon name={OPTION_ICON[o.kind] ?? 'circle'} />
          {o.name}
        </button>
      ))}
    </div>
  );
}

function sameContent(a: ToolCallContentItem, b: ToolCallContentItem): boolean {
  if (a.type === 'diff' && b.type === 'diff') return a.path === b.path && a.newText === b.newText;
  if (a.type === 'terminal' && b.type === 'terminal') return a.terminalId === b.terminalId;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A pending request inside its tool call's card (a region in the live log, so it is announced): the
 * options, plus only the preview the tool call does not already show (Gemini sends an edit's diff only
 * in the request), so the same diff never shows twice.
 */
export function PermissionRequest({
  request,
  sessionId,
  shown,
  shownCommand,
}: {
  request: PendingPermission;
  sessionId: string;
  /** What the tool call's card shows already. */
  shown: readonly ToolCallContentItem[];
  shownCommand?: string;
}) {
  const headingId = `perm-${request.requestId}`;
  const extra = (request.content ?? []).filter((c) => !shown.some((s) => sameContent(s, c)));
  return (
    <section class="permission-request" role="region" aria-labelledby={headingId}>
      <div class="item-header">
        <Icon name="shield" />
        <span id={headingId} class="permission-title">
          Permission: {request.title}
        </span>
      </div>
      {request.command && request.command !== shownCommand && <pre class="tool-command">$ {request.command}</pre>}
      {extra.length > 0 && <ToolContent content={extra} sessionId={sessionId} toolCallId={request.toolCallId} idBase={headingId} />}
      <PermissionOptions request={request} sessionId={sessionId} />
    </section>
  );
}

/** A request whose tool call is not in the transcript: a card of its own, with its preview. */
export function PermissionCard({ request, sessionId }: { request: PendingPermission; sessionId: string }) {
  const headingId = `perm-${request.requestId}`;
  return (
    <section class="permission-card" role="region" aria-labelledby={headingId}>
      <div class="item-header">
        <Icon name="shield" />
        <span id={headingId} class="permission-title">
          Permission: {request.title}
        </span>
        {request.toolKind && <Icon name={KIND_ICON[request.toolKind] ?? 'tools'} label={request.toolKind} />}
      </div>
      {request.locations && <Locations locations={request.locations} />}
      {request.command && <pre class="tool-command">$ {request.command}</pre>}
      {request.content && request.content.length > 0 && (
        <ToolContent content={request.content} sessionId={sessionId} toolCallId={request.toolCallId} idBase={headingId} />
      )}
      <PermissionOptions request={request} sessionId={sessionId} />
    </section>
  );
}
