// Hand-written guards for the two hottest `session/update` shapes (a text chunk, and a
// tool_call_update that only changes status). They cover most of a real stream and cost
// a fraction of the zod parse. They accept only inputs the zod schema accepts and return
// exactly what it returns (a unit test checks that); anything else returns undefined and
// goes through zod.
import type { KnownSessionUpdate } from './sessionUpdate';

const CHUNK_TAGS: ReadonlySet<string> = new Set(['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']);

export function fastParseSessionUpdate(raw: Record<string, unknown>): KnownSessionUpdate | undefined {
  const tag = raw.sessionUpdate;
  if (typeof tag !== 'string') return undefined;
  if (CHUNK_TAGS.has(tag)) return textChunk(tag, raw);
  if (tag === 'tool_call_update') return statusUpdate(raw);
  return undefined;
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
  const update = { sessionUpdate: tag, content: { type: 'text', text: block.text } } as KnownSessionUpdate & { messageId?: string };
  if (messageId !== undefined) update.messageId = messageId;
  return update;
}

function statusUpdate(raw: Record<string, unknown>): KnownSessionUpdate | undefined {
  let hasStatus = false;
  for (const key in raw) {
    if (key === 'status') {
      if (typeof raw.status !== 'string') return undefined;
      hasStatus = true;
    } else if (key !== 'sessionUpdate' && key !== 'toolCallId' && key !== '_meta') return undefined;
  }
  if (typeof raw.toolCallId !== 'string') return undefined;
  const update = hasStatus
    ? { sessionUpdate: 'tool_call_update', toolCallId: raw.toolCallId, status: raw.status as string }
    : { sessionUpdate: 'tool_call_update', toolCallId: raw.toolCallId };
  return update as KnownSessionUpdate;
}
