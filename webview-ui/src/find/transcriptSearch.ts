// Find in the session: searched in the transcript model (every item, rendered or not), literally and
// ignoring case, so a match far above the rendered part of the virtual list is found and counted.
import type { TranscriptContent, TranscriptItem } from '../../../src/shared/transcript';

/** One occurrence of the query: in item `index`, the `occurrence`-th (from 0) in that item's text. */
export interface FindMatch {
  index: number;
  occurrence: number;
}

/** Counting stops here: a one-letter query in a day's session would otherwise list millions. */
export const MAX_MATCHES = 10_000;

function contentText(blocks: readonly TranscriptContent[]): string {
  let s = '';
  for (const b of blocks) {
    if (b.type === 'text') s += `${b.text}\n`;
    else if (b.type === 'resource_link') s += `${b.title ?? b.name}\n`;
    else if (b.type === 'resource' && b.text !== undefined) s += `${b.text}\n`;
  }
  return s;
}

/** The searchable text of an item: what the chat shows of it as text (Markdown as written). */
function itemText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user_message':
    case 'agent_message':
    case 'thought':
    case 'session_message':
      return contentText(item.content);
    case 'tool_call': {
      let s = `${item.title}\n`;
      for (const c of item.content) {
        if (c.type === 'content') s += contentText([c.content]);
        else if (c.type === 'diff') s += `${c.path}\n${c.newText}\n`;
      }
      if (item.output) s += item.output.text;
      return s;
    }
    case 'plan':
      return `${item.entries.map((e) => e.content).join('\n')}\n${item.markdown ?? ''}`;
    case 'notice':
      return `${item.title}\n${item.description ?? ''}`;
    case 'error':
      return `${item.message}\n${item.detail ?? ''}`;
    case 'compaction':
      return contentText(item.summary);
    default:
      return '';
  }
}

/** Items are immutable (a change replaces the item), so their lower-cased text is kept per item object. */
const lowered = new WeakMap<TranscriptItem, string>();

function lowerText(item: TranscriptItem): string {
  let t = lowered.get(item);
  if (t === undefined) {
    t = itemText(item).toLowerCase();
    lowered.set(item, t);
  }
  return t;
}

/** Every occurrence of `query` (literal, case-insensitive) in the items, in order, at most MAX_MATCHES. */
export function findMatches(items: readonly TranscriptItem[], query: string): FindMatch[] {
  const q = query.toLowerCase();
  const out: FindMatch[] = [];
  if (!q) return out;
  for (let index = 0; index < items.length && out.length < MAX_MATCHES; index++) {
    const text = lowerText(items[index]);
    let occurrence = 0;
    for (let at = text.indexOf(q); at >= 0 && out.length < MAX_MATCHES; at = text.indexOf(q, at + q.length)) out.push({ index, occurrence: occurrence++ });
  }
  return out;
}

/** The indexes of the user's prompts. */
export function promptIndexes(items: readonly TranscriptItem[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < items.length; i++) if (items[i].kind === 'user_message') out.push(i);
  return out;
}
