// Hand-written guards for the hottest `session/update` shapes (a text chunk, a
// tool_call_update that only changes status, and well-formed tool_call / tool_call_update
// with diff or terminal content and locations). They cover most of a real stream and cost
// a fraction of the zod parse. They accept only inputs the zod schema accepts and return
// exactly what it returns (a unit test checks that); anything else returns undefined and
// goes through zod.
import type { KnownSessionUpdate } from './sessionUpdate';

const CHUNK_TAGS: ReadonlySet<string> = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

export function fastParseSessionUpdate(raw: Record<string, unknown>): KnownSessionUpdate | undefined {
  const tag = raw.sessionUpdate;
  if (typeof tag !== 'string') return undefined;
  if (CHUNK_TAGS.has(tag)) return textChunk(tag, raw);
  if (tag === 'tool_call_update') return statusUpdate(raw) ?? toolCall(tag, raw);
  if (tag === 'tool_call') return toolCall(tag, raw);
  return undefined;
}

const TOOL_CALL_KEYS: ReadonlySet<string> = new Set([
  'sessionUpdate', 'toolCallId', 'name', 'title', 'kind', 'status', 'content', 'locations', 'rawInput', 'rawOutput', '_meta',
]);

/**
 * A tool_call or tool_call_update whose fields are all well-formed (strings where strings
 * go, every content item a diff, terminal or text content, every location valid). Anything
 * zod would repair or skip is left to zod.
 */
function toolCall(tag: string, raw: Record<string, unknown>): KnownSessionUpdate | undefined {
  for (const key in raw) if (!TOOL_CALL_KEYS.has(key)) return undefined;
  const { toolCallId, name, title, kind, status, content, locations } = raw;
  if (typeof toolCallId !== 'string') return undefined;
  if (name !== undefined && typeof name !== 'string') return undefined;
  if (title !== undefined && typeof title !== 'string') return undefined;
  if (kind !== undefined && typeof kind !== 'string') return undefined;
  if (status !== undefined && typeof status !== 'string') return undefined;
  const update: Record<string, unknown> = { sessionUpdate: tag, toolCallId };
  if (name !== undefined) update.name = name;
  if (kind !== undefined) update.kind = kind;
  if (status !== undefined) update.status = status;
  if (content !== undefined) {
    const items = toolCallContent(content);
    if (items === undefined) return undefined;
    update.content = items;
  }
  if (locations !== undefined) {
    const items = toolLocations(locations);
    if (items === undefined) return undefined;
    update.locations = items;
  }
  if ('rawInput' in raw) update.rawInput = raw.rawInput;
  if ('rawOutput' in raw) update.rawOutput = raw.rawOutput;
  if ('_meta' in raw) update._meta = raw._meta;
  if (tag === 'tool_call') update.title = title ?? '';
  else if (title !== undefined) update.title = title;
  return update as KnownSessionUpdate;
}

function toolCallContent(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: unknown[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const item = entry as Record<string, unknown>;
    if (item.type === 'diff') {
      for (const key in item) if (key !== 'type' && key !== 'path' && key !== 'oldText' && key !== 'newText' && key !== '_meta') return undefined;
      const { path, oldText, newText } = item;
      if (typeof path !== 'string' || typeof newText !== 'string') return undefined;
      if (oldText === undefined || oldText === null) out.push({ type: 'diff', path, oldText: null, newText });
      else if (typeof oldText === 'string') out.push({ type: 'diff', path, oldText, newText });
      else return undefined;
    } else if (item.type === 'terminal') {
      for (const key in item) if (key !== 'type' && key !== 'terminalId' && key !== '_meta') return undefined;
      if (typeof item.terminalId !== 'string') return undefined;
      out.push({ type: 'terminal', terminalId: item.terminalId });
    } else {
      return undefined;
    }
  }
  return out;
}

function toolLocations(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: unknown[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const location = entry as Record<string, unknown>;
    for (const key in location) if (key !== 'path' && key !== 'line' && key !== '_meta') return undefined;
    const { path, line } = location;
    if (typeof path !== 'string') return undefined;
    if (line === undefined) out.push({ path });
    else if (typeof line === 'number' && Number.isInteger(line) && line >= 0) out.push({ path, line });
    else return undefined;
  }
  return out;
}

function textChunk(tag: string, raw: Record<string, unknown>): KnownSessionUpdate | undefined {
  let messageId: string | undefined;
  let content: unknown;
  for (const key in raw) {
    if (key === 'content') content = raw.content;
    else if (key === 'messageId') {
      if (typeof raw.messageId !== 'string') return undefined;
      messageId = raw.messageId;
    } else if (key !== 'sessionUpdate' && key !== '_meta') return undefined;
  }
  if (typeof content !== 'object' || content === null) return undefined;
  const block = content as Record<string, unknown>;
  if (block.type !== 'text' || typeof block.text !== 'string') return undefined;
  for (const key in block) if (key !== 'type' && key !== 'text' && key !== 'annotations' && key !== '_meta') return undefined;
  // One literal per shape (no property added afterwards): same keys, same order as zod's output.
  const text = block.text;
  return (
    messageId === undefined
      ? { sessionUpdate: tag, content: { type: 'text', text } }
      : { sessionUpdate: tag, content: { type: 'text', text }, messageId }
  ) as KnownSessionUpdate;
}

function statusUpdate(raw: Record<string, unknown>): KnownSessionUpdate | undefined {
  let hasStatus = false;
  for (const key in raw) {
    if (key === 'status') {
      if (typeof raw.status !== 'string') return undefined;
      hasStatus = true;
    } else if (key !== 'sessionUpdate' && key !== 'toolCallId') return undefined;
  }
  if (typeof raw.toolCallId !== 'string') return undefined;
  const update = hasStatus
    ? { sessionUpdate: 'tool_call_update', toolCallId: raw.toolCallId, status: raw.status as string }
    : { sessionUpdate: 'tool_call_update', toolCallId: raw.toolCallId };
  return update as KnownSessionUpdate;
}
