// Shows find's matches in the rendered items with the CSS Custom Highlight API: ranges over the text the
// components rendered, so no component's DOM is changed. Where the API is missing nothing is painted; the
// count and the scrolling still work.

const ALL = 'switchboard-find';
const CURRENT = 'switchboard-find-current';

interface HighlightRegistry {
  set(name: string, h: unknown): void;
  delete(name: string): void;
}
type HighlightCtor = new (...ranges: Range[]) => unknown;

function api(): { registry: HighlightRegistry; Highlight: HighlightCtor } | undefined {
  const g = globalThis as unknown as { CSS?: { highlights?: HighlightRegistry }; Highlight?: HighlightCtor };
  return g.CSS?.highlights && g.Highlight ? { registry: g.CSS.highlights, Highlight: g.Highlight } : undefined;
}

/** The ranges of `query` (literal, case-insensitive) in the text under `root`, in document order. */
export function rangesOf(root: Node, query: string): Range[] {
  const q = query.toLowerCase();
  const out: Range[] = [];
  if (!q) return out;
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + q.length)) {
      const r = doc.createRange();
      r.setStart(node, at);
      r.setEnd(node, at + q.length);
      out.push(r);
    }
  }
  return out;
}

/** Paints `all` as matches and `current` as the current one; no ranges clears them. */
export function paintMatches(all: Range[], current: Range | undefined): void {
  const a = api();
  if (!a) return;
  if (all.length) a.registry.set(ALL, new a.Highlight(...all));
  else a.registry.delete(ALL);
  if (current) a.registry.set(CURRENT, new a.Highlight(current));
  else a.registry.delete(CURRENT);
}
