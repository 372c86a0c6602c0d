import { stripAnsi } from '../../../src/shared/ansi';

/*
 * A tool call's raw input and output as the card shows them: without the text the card already shows
 * elsewhere (agents such as Kilo send a shell's output both as content and in `rawOutput.output`), and
 * bounded in size.
 */

/** Longest raw input or output shown; the rest is cut, with a note of how much. */
export const MAX_RAW_CHARS = 20_000;

/** Stands in for a string the card already shows. */
const SHOWN_ABOVE = '(shown above)';

/** Nodes looked at for text already shown; a value larger than that is shown from there on as it came. */
const MAX_NODES = 5_000;

/** Text the card shows elsewhere: whole strings, and the tails of output it shows cut. */
export interface ShownText {
  whole: string[];
  tails?: string[];
}

/** The same text for comparison: no ANSI escapes, \n line ends, no surrounding white space. */
export function comparable(text: string): string {
  return stripAnsi(text).trim();
}

/**
 * `value` with every string the card already shows replaced by SHOWN_ABOVE, or undefined when nothing
 * else is left (the whole value is text shown above, or only such text inside objects and arrays).
 */
export function withoutShown(value: unknown, shown: ShownText): unknown {
  if (value === undefined || value === null) return undefined;
  // Made at the first string: a card re-renders with every chunk of a streamed output, mostly with no raw value yet.
  let known: { whole: Set<string>; tails: string[] } | undefined;
  const isShown = (text: string): boolean => {
    known ??= {
      whole: new Set(shown.whole.map(comparable).filter((s) => s.length > 0)),
      tails: (shown.tails ?? []).map(comparable).filter((s) => s.length > 0),
    };
    if (known.whole.size === 0 && known.tails.length === 0) return false;
    const c = comparable(text);
    return known.whole.has(c) || known.tails.some((t) => c.endsWith(t));
  };
  let budget = MAX_NODES;
  let left = false;
  const walk = (v: unknown): unknown => {
    if (budget-- <= 0) {
      left = true;
      return v;
    }
    if (typeof v === 'string') {
      if (v.trim().length === 0) return v;
      if (isShown(v)) return SHOWN_ABOVE;
      left = true;
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (v !== null && v !== undefined) left = true;
    return v;
  };
  const result = walk(value);
  return left ? result : undefined;
}

interface RawText {
  text: string;
  /** Pretty-printed JSON (false: a string, shown as it came). */
  json: boolean;
  /** Characters left out at the end (0: all of it is shown). */
  cut: number;
  /** Characters of the whole text. */
  total: number;
}

/** A string as it came, anything else as pretty-printed JSON; at most `max` characters. */
export function rawText(value: unknown, max = MAX_RAW_CHARS): RawText {
  const json = typeof value !== 'string';
  const full = json ? (JSON.stringify(value, null, 2) ?? String(value)) : value;
  const text = full.length > max ? full.slice(0, max) : full;
  return { text, json, cut: full.length - text.length, total: full.length };
}
