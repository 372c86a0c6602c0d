// Tool-call merging with the spec's semantics: a tool_call_update replaces each field it
// carries (`content` and `locations` are replaced whole, not appended) and leaves the rest.
import type { ToolCallStatus, ToolKind, TranscriptItem } from '../../shared/transcript';
import { parseSessionUpdate, type KnownSessionUpdate } from '../schema/sessionUpdate';

export type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;
type ToolCallUpdate = Extract<KnownSessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

const TOOL_KINDS: ReadonlySet<string> = new Set<ToolKind>([
  'read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other',
]);
const STATUSES: ReadonlySet<string> = new Set<ToolCallStatus>(['pending', 'in_progress', 'completed', 'failed']);

export function newToolCall(id: string, update: ToolCallUpdate): ToolCallItem {
  const item: ToolCallItem = {
    kind: 'tool_call',
    id,
    toolCallId: update.toolCallId,
    title: update.title ?? '',
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
  };
  return mergeToolCall(item, update);
}

/** Returns a new item: items are never mutated, so a renderer can compare by reference. */
export function mergeToolCall(previous: ToolCallItem, update: ToolCallUpdate): ToolCallItem {
  const next: ToolCallItem = { ...previous };
  if (update.title !== undefined) next.title = update.title;
  if (update.kind !== undefined) {
    if (TOOL_KINDS.has(update.kind)) {
      next.toolKind = update.kind as ToolKind;
      // `delete` would turn every item into a slow dictionary-mode object: only when needed.
      if (next.rawKind !== undefined) delete next.rawKind;
    } else {
      // Shown as "other", with what the agent called it.
      next.toolKind = 'other';
      next.rawKind = update.kind;
    }
  }
  if (update.status !== undefined && STATUSES.has(update.status)) next.status = update.status as ToolCallStatus;
  if (update.content !== undefined) next.content = update.content;
  if (update.locations !== undefined) next.locations = update.locations;
  if (update.rawInput !== undefined) next.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) next.rawOutput = update.rawOutput;
  return next;
}

/**
 * The tool call a `session/request_permission` carries (a ToolCallUpdate), read the way a
 * `tool_call_update` is, so permission cards show the same content and locations as tool call cards.
 */
export function toolCallFromRequest(raw: unknown): ToolCallItem | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const update = parseSessionUpdate({ ...raw, sessionUpdate: 'tool_call_update' });
  return update.sessionUpdate === 'tool_call_update' ? newToolCall('permission', update) : undefined;
}
