// Fuzzy matching for pickers and search boxes (@-mentions, slash commands, session history). Pure, so the
// host (which ranks workspace files) and the webview (which re-ranks as the user types) rank alike.

/** Fuzzy match score (subsequence; bonuses for prefix, word starts, contiguity); 0 = no match. */
export function fuzzyScore(query: string, target: string): number {
  if (!query) return 1;
  const q = query.toLowerCase();
  const t = target.toLowerCase();
  let score = 0;
  let ti = 0;
  let prev = -2;
  for (let qi = 0; qi < q.length; qi++) {
    const ch = q[qi];
    const found = t.indexOf(ch, ti);
    if (found < 0) return 0;
    score += 1;
    if (found === prev + 1) score += 2;
    if (found === 0 || /[\s/\\._-]/.test(t[found - 1] ?? '')) score += 3;
    prev = found;
    ti = found + 1;
  }
  if (t.startsWith(q)) score += 5;
  return score - t.length * 0.01;
}

export interface RankOptions {
  /** At most this many results (default: all). */
  limit?: number;
  /**
   * How much lower a match in each later field ranks than the same match in the field before it
   * (default 1: a file whose name matches beats one whose folder matches).
   */
  laterFieldPenalty?: number;
}

/**
 * The items that match `query` in any of their `fields`, best first (ties keep the input order). An empty
 * query keeps every item in its order. Each item scores by its best field.
 */
export function rankByFuzzy<T>(query: string, items: readonly T[], fields: (item: T) => ReadonlyArray<string | undefined>, options: RankOptions = {}): T[] {
  const q = query.trim();
  const limit = options.limit ?? Infinity;
  if (!q) return items.slice(0, limit);
  const penalty = options.laterFieldPenalty ?? 1;
  const scored: Array<{ item: T; score: number }> = [];
  for (const item of items) {
    let score = 0;
    fields(item).forEach((text, i) => {
      if (text) score = Math.max(score, fuzzyScore(q, text) - i * penalty);
    });
    if (score > 0) scored.push({ item, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((x) => x.item);
}

/** The fields of a picker entry: its label, then its detail (a file's folder, a command's description). */
export const labelThenDetail = (item: { label: string; detail?: string }): Array<string | undefined> => [item.label, item.detail];
