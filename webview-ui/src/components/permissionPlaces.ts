// Where each pending permission request shows, at one level of the transcript (the session's own items, or
// a subagent's): in the card of its tool call (the first request per tool call); a subagent's request in the
// nest of that subagent (the request's `subagentPath` names the children from the session down to it); or,
// when neither is rendered (unknown to the transcript, or scrolled out of the DOM), in a card of its own at
// the end of the level, so its buttons are always reachable.
import type { PendingPermission } from '../../../src/shared/chatState';
import type { TranscriptItem } from '../../../src/shared/transcript';

export interface PermissionPlaces {
  /** By tool call id: the request shown in that tool call's card. */
  inCard: Map<string, PendingPermission>;
  /** By subagent item id: the requests of that subagent or of its own children. */
  inNest: Map<string, PendingPermission[]>;
  standalone: PendingPermission[];
}

/**
 * `rendered`: the level's items in the DOM; `nestSessionId`: the child session whose transcript they are
 * (undefined: the session's own items).
 */
export function placePermissions(permissions: readonly PendingPermission[], rendered: readonly TranscriptItem[], nestSessionId?: string): PermissionPlaces {
  const places: PermissionPlaces = { inCard: new Map(), inNest: new Map(), standalone: [] };
  if (permissions.length === 0) return places;
  const toolCalls = new Set(rendered.flatMap((i) => (i.kind === 'tool_call' ? [i.toolCallId] : [])));
  for (const p of permissions) {
    const path = p.subagentPath ?? [];
    const at = nestSessionId === undefined ? -1 : path.indexOf(nestSessionId);
    if (nestSessionId !== undefined && at < 0) {
      places.standalone.push(p);
      continue;
    }
    const below = path[at + 1];
    if (below === undefined) {
      if (p.toolCallId && toolCalls.has(p.toolCallId) && !places.inCard.has(p.toolCallId)) places.inCard.set(p.toolCallId, p);
      else places.standalone.push(p);
      continue;
    }
    const nest = rendered.find((i) => i.kind === 'subagent' && i.sessionId === below);
    if (nest) places.inNest.set(nest.id, [...(places.inNest.get(nest.id) ?? []), p]);
    else places.standalone.push(p);
  }
  return places;
}
