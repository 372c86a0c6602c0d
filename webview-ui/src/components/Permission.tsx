import type { PendingPermission } from '../../../src/shared/chatState';
import { Icon, useStore } from './common';
import { KIND_ICON, Locations, ToolContent } from './ToolCall';

const OPTION_ICON: Record<string, string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

/** Inline permission card: one real <button> per option, named exactly by the option's name. */
export function PermissionCard({ request, sessionId }: { request: PendingPermission; sessionId: string }) {
  const store = useStore();
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
        <ToolContent content={request.content} sessionId={sessionId} toolCallId={request.toolCallId} idBase={`perm-${request.requestId}`} />
      )}
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
    </section>
  );
}
