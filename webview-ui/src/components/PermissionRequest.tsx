// A permission request shown inside its tool call's card: the options, and only the preview the card does
// not show already.
import type { PendingPermission } from '../../../src/shared/chatState';
import type { ToolCallContentItem } from '../../../src/shared/transcript';
import { Icon } from './Icon';
import { PermissionOptions } from './PermissionOptions';
import { ToolContent } from './ToolContent';

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
