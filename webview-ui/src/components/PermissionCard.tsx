// A permission request whose tool call is not in the transcript, as a card of its own with its preview.
import type { PendingPermission } from '../../../src/shared/chatState';
import { Icon } from './Icon';
import { Locations } from './Locations';
import { PermissionOptions } from './PermissionOptions';
import { KIND_ICON } from './ToolCallCard';
import { ToolContent } from './ToolContent';

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
