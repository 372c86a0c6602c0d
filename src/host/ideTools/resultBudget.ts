// Keeps a tool's result within what an agent's context can take: long strings are cut, then the longest
// list is shortened until the whole result fits, and the result says what was left out. Pure.

/** Characters of JSON one tool result may have. */
export const MAX_RESULT_CHARS = 60_000;
/** Characters one string (a selection's text, a hover) may have. */
export const MAX_STRING_CHARS = 20_000;

type Json = string | number | boolean | null | undefined | Json[] | { [key: string]: Json };

function cutStrings(value: Json, cut: { count: number }): Json {
  if (typeof value === 'string') {
    if (value.length <= MAX_STRING_CHARS) return value;
    cut.count++;
    return `${value.slice(0, MAX_STRING_CHARS)}… [cut at ${MAX_STRING_CHARS} of ${value.length} characters]`;
  }
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, cut));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, cut)]));
  return value;
}

/** The result, within `maxChars` of JSON, with `truncated` saying what was cut. */
export function withinBudget<T extends object>(result: T, maxChars = MAX_RESULT_CHARS): T {
  const notes: string[] = [];
  const cut = { count: 0 };
  const out = cutStrings(result as Json, cut) as Record<string, Json>;
  if (cut.count > 0) notes.push(`${cut.count} text${cut.count === 1 ? ' was' : 's were'} cut at ${MAX_STRING_CHARS} characters`);
  const size = () => JSON.stringify({ ...out, truncated: 'x'.repeat(200) }).length;
  if (size() > maxChars) {
    const lists = Object.entries(out).filter((e): e is [string, Json[]] => Array.isArray(e[1]));
    const [key, list] = lists.sort((a, b) => JSON.stringify(b[1]).length - JSON.stringify(a[1]).length)[0] ?? [];
    if (key && list) {
      let low = 0;
      let high = list.length;
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        out[key] = list.slice(0, mid);
        if (size() <= maxChars) low = mid;
        else high = mid - 1;
      }
      out[key] = list.slice(0, low);
      notes.push(`showing ${low} of ${list.length} ${key}; ask about one file or a narrower query for the rest`);
    }
  }
  if (notes.length > 0) out.truncated = `Result cut to fit ${maxChars} characters: ${notes.join('; ')}.`;
  return out as T;
}
