// An item's size class: the group whose measured heights estimate its own until it is rendered
// (itemLayout.ts). Items of one kind and about the same text length are about as high, so scrolling to
// items never rendered corrects their heights by little.
import type { TranscriptItem } from '../../../src/shared/transcript';

/** Per item object: an item that changes is a new object, so its class is computed again. */
const classes = new WeakMap<TranscriptItem, string>();

/** 0 for no text, then one step per doubling of the length past 64 characters. */
function lengthStep(chars: number): number {
  return chars <= 0 ? 0 : Math.ceil(Math.log2(1 + chars / 64));
}

function textLength(content: readonly { type: string; text?: string }[]): number {
  let n = 0;
  for (const c of content) if (c.type === 'text' && typeof c.text === 'string') n += c.text.length;
  return n;
}

function compute(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user_message':
    case 'agent_message':
    case 'session_message':
      return `${item.kind}:${lengthStep(textLength(item.content))}:${item.content.length}`;
    case 'tool_call':
      return `tool_call:${item.status}:${item.content.length}:${item.locations.length}:${item.output ? 1 : 0}`;
    case 'plan':
      return `plan:${item.entries.length}`;
    default:
      return item.kind;
  }
}

export function sizeClass(item: TranscriptItem): string {
  let c = classes.get(item);
  if (c === undefined) classes.set(item, (c = compute(item)));
  return c;
}
