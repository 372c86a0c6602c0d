// A per-frame time budget for Markdown rendering, shared by every message on screen: a burst of finished
// blocks (a whole answer arriving at once, a tab with long messages) is rendered over several frames
// instead of one long task. The first render in a frame opens the window; later ones share it.
const FRAME_MS = 16;
let budgetMs = 8;
let windowStart = -Infinity;

/** The performance.now() time by which Markdown rendering in this frame should stop. */
export function markdownDeadline(): number {
  const now = performance.now();
  if (now - windowStart >= FRAME_MS) windowStart = now;
  return windowStart + budgetMs;
}

/** Tests: Infinity renders everything at once; 0 renders one block per update. */
export function setMarkdownBudget(ms: number): void {
  budgetMs = ms;
  windowStart = -Infinity;
}
