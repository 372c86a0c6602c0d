// A per-frame budget for Markdown rendering, shared by every message on screen: a burst of finished blocks
// (a whole answer arriving at once, a tab with long messages) is rendered over several frames instead of
// one long task. The first render in a frame opens the window; later ones share it, and once something was
// rendered in it, a message past the limits waits for the next frame. Two limits: time spent
// in markdown-it and DOMPurify, and the markup handed to the DOM, since the browser's style, layout and
// paint of new elements cost several times what producing them did (a burst of small sections could stay
// inside the time budget and still make a frame of 90 ms). The HTML is weighed per element as well as per
// character (markupCost in markdownRender.ts).
import type { MarkupBudget } from './markdownRender';

/** Without animation frames (plain DOM tests), a window lasts this long. */
const FRAME_MS = 16;
/** A window still open after this long belongs to a frame that never came (a hidden webview). */
const STALE_WINDOW_MS = 500;
let budgetMs = 8;
/** Markup per frame, in markupCost units: 12 KB of paragraph text, or about 150 elements of short sections. */
const MARKUP_PER_FRAME = 12_000;
let markupBudget = MARKUP_PER_FRAME;
let windowStart = -Infinity;
let windowOpen = false;
let markupSpent = 0;

/**
 * The performance.now() time by which Markdown rendering in this frame should stop. A window ends when the
 * next animation frame starts, not after a fixed time: several renders in one long task (the store's
 * frame, then each message's own) share one budget instead of each opening a new one.
 */
export function markdownDeadline(): number {
  const now = performance.now();
  const frames = typeof requestAnimationFrame === 'function';
  const over = frames ? !windowOpen || now - windowStart >= STALE_WINDOW_MS : now - windowStart >= FRAME_MS;
  if (over) {
    windowStart = now;
    markupSpent = 0;
    windowOpen = true;
    if (frames) requestFrame();
  }
  return windowStart + budgetMs;
}

/**
 * Spends the rest of this frame's Markdown budget: what is not rendered yet renders in the task after the
 * frame (a fast scroll's frame then holds the mounting of the items it shows, not their Markdown too).
 */
export function spendMarkdownFrame(): void {
  markdownDeadline();
  markupSpent = Infinity;
}

const waiting = new Set<() => void>();
let frameRequested = false;

/**
 * Runs `render` at the next animation frame together with every other message that waits for one: one
 * callback and one render flush a frame, not one per message (a 2,000-message build has ~100 waiting).
 * Returns the cancel.
 */
export function renderNextFrame(render: () => void): () => void {
  waiting.add(render);
  requestFrame();
  return () => void waiting.delete(render);
}

/**
 * One callback at the next animation frame: it ends the budget window; what waits for it renders in the
 * task after the frame, like the store's renders (frameTask.ts), so the frame's own task is style, layout
 * and paint.
 */
function requestFrame(): void {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(onFrame);
}

function onFrame(): void {
  frameRequested = false;
  windowOpen = false;
  if (waiting.size) setTimeout(renderWaiting, 0);
}

function renderWaiting(): void {
  const due = [...waiting];
  waiting.clear();
  for (const render of due) render();
}

/** The HTML this frame may still add, shared by every message (call markdownDeadline() first). */
export const frameMarkup: MarkupBudget = {
  spend: (chars) => void (markupSpent += chars),
  exhausted: () => markupSpent >= markupBudget,
  started: () => markupSpent > 0,
};

/** Tests: Infinity renders everything at once; 0 renders one block per update. */
export function setMarkdownBudget(ms: number): void {
  budgetMs = ms;
  markupBudget = ms === Infinity ? Infinity : ms === 0 ? 0 : MARKUP_PER_FRAME;
  windowStart = -Infinity;
  windowOpen = false;
  markupSpent = 0;
}
