import type { ComponentChildren } from 'preact';
import type { PendingPermission } from '../../../src/shared/chatState';
import type { SubagentItem, SubagentWorkState, TranscriptItem } from '../../../src/shared/transcript';
import type { NestReveal } from '../find/transcriptSearch';
import { Collapsible } from './Collapsible';
import { PermissionCard } from './PermissionCard';
import { placePermissions } from './permissionPlaces';
import { Icon } from './Icon';
import { memo } from './memo';
import { useStore } from './storeHooks';
import { ContentList } from './ContentList';
import { usageText } from './usageText';

/** How the nest's header shows the child's work state. */
function stateView(state: SubagentWorkState | undefined): { icon: string; label: string; spin?: boolean; title?: string } {
  switch (state?.state) {
    case undefined:
      return { icon: 'circle-large-outline', label: 'Not reported' };
    case 'running':
      return { icon: 'loading', label: 'Running', spin: true };
    case 'requires_action':
      return { icon: 'bell', label: 'Waiting for you' };
    case 'unknown':
      return { icon: 'question', label: 'State unknown', title: 'The agent can no longer tell what this subagent is doing' };
    case 'idle':
      if (state.stopReason === 'error') return { icon: 'error', label: 'Failed', title: state.error };
      if (state.stopReason === 'cancelled') return { icon: 'debug-stop', label: 'Cancelled' };
      if (state.stopReason === undefined || state.stopReason === 'end_turn') return { icon: 'check', label: 'Finished' };
      return { icon: 'info', label: `Finished: ${state.stopReason}` };
    default:
      return { icon: 'info', label: state?.state ?? '' };
  }
}

/** Who a message between sessions is from or for, as the nest names them. */
function who(sessionId: string | undefined, child: SubagentItem, name: string): string {
  if (sessionId === child.sessionId) return name;
  return sessionId === undefined ? 'another session' : 'parent';
}

/** What a child item is drawn with: its pending request, or a nested subagent's requests and find's reveal. */
export interface ChildPlace {
  permission?: PendingPermission;
  permissions?: readonly PendingPermission[];
  reveal?: NestReveal;
}

/**
 * A subagent (a child session the agent runs) as the card of the tool call that started it: its title,
 * state, usage, a Cancel button where the agent allows it, and its own transcript nested in a disclosure,
 * which stays open while a permission request of the child (or of its children) waits, shown in the card of
 * the child's tool call, and which find opens to show a match. `renderItem` draws the child's items as the
 * chat draws its own (passed in, so the nest does not import the item view that renders it).
 */
export const SubagentNest = memo(function SubagentNest({
  item,
  sessionId,
  permissions = [],
  reveal,
  renderItem,
}: {
  item: SubagentItem;
  sessionId: string;
  permissions?: readonly PendingPermission[];
  reveal?: NestReveal;
  renderItem: (child: TranscriptItem, place: ChildPlace) => ComponentChildren;
}) {
  const store = useStore();
  const name = item.title || (item.unannounced ? 'Unknown subagent' : 'Subagent');
  const st = stateView(item.state);
  const working = item.state?.state === 'running' || item.state?.state === 'requires_action';
  const usage = item.state?.usage ? usageText(item.state.usage) : undefined;
  const context = item.transcript.usage;
  const items = item.transcript.items;
  const places = placePermissions(permissions, items, item.sessionId);
  const placeOf = (child: TranscriptItem): ChildPlace => {
    // Find's match in a collapsed section of a child item of this nest (the innermost one).
    const section = reveal?.section === child.id && reveal.nests.at(-1) === item.id ? { reveal } : {};
    if (child.kind === 'tool_call') return { permission: places.inCard.get(child.toolCallId), ...section };
    if (child.kind !== 'subagent') return section;
    return { permissions: places.inNest.get(child.id), reveal: reveal?.nests.includes(child.id) ? reveal : undefined };
  };
  return (
    <div class={`tool-call subagent-nest state-${item.state?.state ?? 'none'}${item.unannounced ? ' unannounced' : ''}`} role="group" aria-label={name}>
      <div class="tool-header">
        <Icon name="hubot" label="Subagent" />
        <span class="tool-title">{name}</span>
        {item.description && <span class="tool-name muted">{item.description}</span>}
        <span class={`tool-status subagent-state state-${item.state?.state ?? 'none'}`} title={st.title}>
          <Icon name={st.icon} spin={st.spin} />
          {st.label}
        </span>
        {item.cancellable && working && (
          <button
            type="button"
            class="icon-button subagent-cancel"
            aria-label={`Cancel subagent ${name}`}
            title="Cancel this subagent's work (the main turn goes on)"
            onClick={() => store.post({ type: 'cancelSubagent', sessionId, subagentSessionId: item.sessionId })}
          >
            <Icon name="debug-stop" /> Cancel
          </button>
        )}
      </div>
      {item.unannounced && <div class="muted subagent-note">The agent sent updates for session {item.sessionId} without announcing it.</div>}
      {item.state?.error && <div class="error-text">{item.state.error}</div>}
      {(usage || context) && (
        <div class="muted subagent-usage">
          {usage ?? ''}
          {context && `${usage ? ' · ' : ''}context ${context.used.toLocaleString()} / ${context.size.toLocaleString()}`}
        </div>
      )}
      {(items.length > 0 || permissions.length > 0) && (
        <Collapsible
          id={`sa-${item.id}`}
          label={`Subagent transcript (${items.length})`}
          ariaLabel={`Transcript of subagent ${name}`}
          defaultOpen={true}
          openRequest={reveal?.nests.includes(item.id) ? reveal : undefined}
          forceOpen={permissions.length > 0}
        >
          {() => (
            <div class="subagent-items">
              {items.map((child) => (
                <div class="item" key={child.id} data-kind={child.kind} data-item-id={child.id}>
                  {child.kind === 'session_message' ? (
                    <div class="message session-message" role="article" aria-label={`${who(child.senderSessionId, item, name)} → ${who(child.recipientSessionId, item, name)}`}>
                      <div class="session-message-header muted">
                        <Icon name="mail" /> {who(child.senderSessionId, item, name)} → {who(child.recipientSessionId, item, name)}
                      </div>
                      <ContentList content={child.content} idBase={child.id} />
                    </div>
                  ) : (
                    renderItem(child, placeOf(child))
                  )}
                </div>
              ))}
              {places.standalone.map((p) => (
                <PermissionCard key={p.requestId} request={p} sessionId={sessionId} />
              ))}
            </div>
          )}
        </Collapsible>
      )}
    </div>
  );
});
