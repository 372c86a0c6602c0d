// Find in the session: searched in the transcript model (every item, rendered or not, a subagent's own
// transcript included), literally and ignoring case, so a match far above the rendered part of the virtual
// list, or inside a collapsed subagent, is found and counted.
import type { SubagentItem, TranscriptContent, TranscriptItem } from '../../../src/shared/transcript';

/** One occurrence of the query: in item `index`, the `occurrence`-th (from 0) in that item's text. */
export interface FindMatch {
  index: number;
  occurrence: number;
}

/**
 * Where find reveals its current match: the item, the subagents in it to open (outermost first), and the
 * item at the innermost level whose collapsed section to open (sectionOfMatch).
 */
export interface NestReveal {
  readonly itemId: string;
  readonly nests: readonly string[];
  readonly section?: string;
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
    case 'subagent':
      return nestHeader(item) + item.transcript.items.map(lowerText).join('');
    default:
      return '';
  }
}

/** What a subagent's card shows of it above its transcript. */
function nestHeader(item: SubagentItem): string {
  return `${item.title ?? ''}\n${item.description ?? ''}\n`;
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

function occurrences(text: string, q: string): number {
  let n = 0;
  for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + q.length)) n++;
  return n;
}

/** Where a match is: the subagents holding it (outermost first), and the item at the innermost level. */
interface MatchPlace {
  nests: string[];
  /** The item that holds the match, unless it is a nest's own header. */
  leaf?: TranscriptItem;
  /** Which occurrence in the leaf's own text it is. */
  occurrence: number;
}

function placeOfMatch(item: TranscriptItem, q: string, occurrence: number): MatchPlace {
  let left = occurrence;
  const walk = (nest: SubagentItem): MatchPlace | undefined => {
    const inHeader = occurrences(nestHeader(nest).toLowerCase(), q);
    if (left < inHeader) return { nests: [], occurrence: left };
    left -= inHeader;
    for (const child of nest.transcript.items) {
      if (child.kind === 'subagent') {
        const inner = walk(child);
        if (inner) return { ...inner, nests: [nest.id, ...inner.nests] };
        continue;
      }
      const n = occurrences(lowerText(child), q);
      if (left < n) return { nests: [nest.id], leaf: child, occurrence: left };
      left -= n;
    }
    return undefined;
  };
  return (item.kind === 'subagent' ? walk(item) : undefined) ?? { nests: [], leaf: item.kind === 'subagent' ? undefined : item, occurrence };
}

/**
 * The ids of the subagent items, outermost first, whose transcripts hold the `occurrence`-th match of
 * `query` in `item` (they must be open for it to show); empty when it is not inside a nest's transcript.
 */
export function nestsOfMatch(item: TranscriptItem, query: string, occurrence: number): string[] {
  const q = query.toLowerCase();
  return q ? placeOfMatch(item, q, occurrence).nests : [];
}

/** Whether the `at`-th occurrence of `q` in blocks' text is inside a resource's (collapsed) contents. */
function inResource(blocks: readonly TranscriptContent[], q: string, at: number): boolean {
  for (const b of blocks) {
    const n = occurrences(contentText([b]).toLowerCase(), q);
    if (at < n) return b.type === 'resource';
    at -= n;
  }
  return false;
}

/** Whether the `at`-th occurrence of `q` in the item's text is in a section that opens ("Details", a thought, a resource). */
function inSection(item: TranscriptItem, q: string, at: number): boolean {
  switch (item.kind) {
    case 'tool_call':
      return at >= occurrences(`${item.title}\n`.toLowerCase(), q);
    case 'error':
      return at >= occurrences(`${item.message}\n`.toLowerCase(), q);
    case 'thought':
    case 'compaction':
      return true;
    case 'user_message':
    case 'agent_message':
    case 'session_message':
      return inResource(item.content, q, at);
    default:
      return false;
  }
}

/**
 * The id of the item, at the innermost nest's level (the session's own when none), whose collapsible
 * section ("Details", "Thinking", "Summary", a resource's "Contents") holds the `occurrence`-th match of `query` in `item`: find opens
 * it to show the match. Undefined when the match shows without opening a section.
 */
export function sectionOfMatch(item: TranscriptItem, query: string, occurrence: number): string | undefined {
  const q = query.toLowerCase();
  const { leaf, occurrence: at } = q ? placeOfMatch(item, q, occurrence) : { leaf: undefined, occurrence: 0 };
  return leaf && inSection(leaf, q, at) ? leaf.id : undefined;
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
