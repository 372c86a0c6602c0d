// The transcript's virtual list: only the items near the viewport are in the DOM, between two spacers
// that stand for the rest. Heights come from a ResizeObserver on each rendered item (and one measurement
// when it mounts); what the user looks at stays put when items above it change size (an anchor item and
// the viewport's offset from it, restored after every render); stuck to the bottom, it follows the end.
// Scrolled fast (more than a viewport in one step: nothing the last frame showed is on screen), it renders the viewport alone, without the
// items beyond it, and widens to them again over the frames after the scrolling stops: what a frame
// mounts is what the user sees, and at most MOUNT_BUDGET new items a frame (from the viewport's top down, then
// up): the rest of the viewport follows at the next frames, so no frame mounts a whole screen of new items.
// The budget is counted from a frame's start (its scroll event) and given back in a task after its paint;
// the Markdown of what such a frame mounts renders in that task too (renderBudget.ts).
import type { RefObject } from 'preact';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { spendMarkdownFrame } from '../renderBudget';
import { type ItemRange, ItemLayout, OVERSCAN } from './itemLayout';

/** Closer than this to the bottom, the list follows new content. */
const STICK_DISTANCE = 48;
/** A scroll step longer than this many viewports is fast scrolling. */
const FAST_STEP = 1;
/** An item showing at most this much (px) at the viewport's top is not the anchor: the one below it is. */
const ANCHOR_SLIVER = 16;
/** Frames over which the overscan grows back after fast scrolling stops. */
const WIDEN_FRAMES = 4;
/** New items mounted in one frame at most while scrolling fast or widening after it. */
export const MOUNT_BUDGET = 6;

interface Anchor {
  id: string;
  /** The viewport's top minus the item's top (px): negative puts the item below the viewport's top. */
  offset: number;
}

interface ListState {
  layout: ItemLayout;
  stick: boolean;
  anchor?: Anchor;
  viewport: number;
  rendered: ItemRange;
  observed: Set<Element>;
  /** The items' offset in the scrolled content (px), read where layout is clean (a ResizeObserver callback). */
  areaTop?: number;
  /** The scroll position must be put where the state says after the next render (a reveal, a new list). */
  restorePending: boolean;
  /** The scroll position last seen or set: a restore that would not move it touches no layout. */
  scrollTop: number;
  /** How far beyond the viewport items are rendered now (px): 0 while scrolling fast. */
  overscan: number;
  /** A fast scroll happened since the last widening frame. */
  scrolled: boolean;
  /** The animation frame that widens the overscan again, while one is requested. */
  widenFrame?: number;
  /** The animation frame that renders the items a measurement asked for, while one is requested. */
  correctFrame?: number;
  /** Items mounted since the frame began (the mount budget's use), and the task after its paint that resets it. */
  mountedNow: number;
  budgetReset?: ReturnType<typeof setTimeout>;
  /** The `follow` value the list was made with or last went back to the end for. */
  follow?: string;
}

export interface VirtualList {
  range: ItemRange;
  /** Heights of the spacers above and below the rendered items. */
  padTop: number;
  padBottom: number;
  /** Whether the list follows the end (a screen reader hears new items then). */
  stuck: boolean;
  onScroll(): void;
  /** Scrolls so item `index` is `below` px under the viewport's top. */
  reveal(index: number, below: number): void;
  /** Where the viewport's top is, in the list's coordinates (px). */
  position(): number;
  /** The top of item `index` in the list's coordinates (px; measured or estimated). */
  itemTop(index: number): number;
}

function blockSize(e: ResizeObserverEntry): number {
  const box = e.borderBoxSize as ReadonlyArray<ResizeObserverSize> | ResizeObserverSize | undefined;
  const first = Array.isArray(box) ? box[0] : (box as ResizeObserverSize | undefined);
  return first ? first.blockSize : (e.target as HTMLElement).getBoundingClientRect().height;
}

/**
 * `scroller`: the scrolling element; `area`: the element whose children are the rendered items (each with
 * `data-item-id`), preceded by the top spacer; `after`: what follows the items (observed, so the end is
 * followed when it grows; not the whole content, whose size the spacers change inside the observer's
 * callback: the browser would report that as a loop it cut short).
 * `key` names the list (a session): another key starts a new list. `classes`: each item's size class
 * (sizeClass.ts), whose measured heights estimate it until it is rendered; the rendered items carry it as
 * `data-size-class`. A new value of `follow` (the last prompt's id) brings the list back to the end.
 */
export function useVirtualList(key: string, ids: readonly string[], classes: readonly string[], follow: string | undefined, scroller: RefObject<HTMLElement | null>, area: RefObject<HTMLElement | null>, after: RefObject<HTMLElement | null>): VirtualList {
  const [, setTick] = useState(0);
  const rerender = () => setTick((t) => t + 1);
  const state = useMemo<ListState>(() => ({ layout: new ItemLayout(), stick: true, viewport: 0, rendered: { start: 0, end: 0 }, observed: new Set(), restorePending: true, scrollTop: -1, overscan: OVERSCAN, scrolled: false, mountedNow: 0, follow }), [key]);
  const { layout } = state;
  layout.setIds(ids, classes);
  // Before this render's range is chosen: the render that shows a new prompt shows the end, even when
  // nothing renders after it (a turn that arrived whole).
  if (follow !== state.follow) {
    state.follow = follow;
    state.stick = true;
    state.anchor = undefined;
    state.restorePending = true;
  }

  // Reading offsetTop forces a layout where the DOM changed: read once, then refreshed by the ResizeObserver.
  const areaTop = () => (state.areaTop ??= area.current?.offsetTop ?? 0);
  const anchorIndex = (): number => (state.anchor ? layout.indexOf(state.anchor.id) : -1);
  const whole = (): ItemRange => {
    if (state.stick) return layout.bottomRange(state.viewport, state.overscan);
    const i = anchorIndex();
    if (i >= 0 && state.anchor) return layout.range(layout.top(i) + state.anchor.offset, state.viewport, state.overscan);
    return layout.range((scroller.current?.scrollTop ?? 0) - areaTop(), state.viewport, state.overscan);
  };
  /** The viewport's top in the list's coordinates, by the heights known now. */
  const viewTop = (): number => {
    const i = anchorIndex();
    if (state.stick) return layout.total() - (state.viewport || 1);
    return i >= 0 && state.anchor ? layout.top(i) + state.anchor.offset : state.scrollTop - areaTop();
  };
  /** What to render: the items wanted, within this frame's mount budget while scrolling fast. */
  const wanted = (): ItemRange => {
    const full = whole();
    if (state.overscan >= OVERSCAN || full.end <= full.start || typeof requestAnimationFrame !== 'function') return full;
    const r = state.rendered;
    const isNew = (i: number) => i < r.start || i >= r.end;
    let left = Math.max(0, MOUNT_BUDGET - state.mountedNow);
    const first = Math.min(Math.max(layout.indexAt(Math.max(0, viewTop())), full.start), full.end - 1);
    let start = first;
    let end = first;
    while (end < full.end && (!isNew(end) || left > 0)) if (isNew(end++)) left--;
    while (start > full.start && (!isNew(start - 1) || left > 0)) if (isNew(--start)) left--;
    return end > start ? { start, end } : r;
  };

  /**
   * Puts the scroll position where the state says: the end, or the anchor where it was. Unless `asked`
   * (a reveal, a new list), a position scrolled to since the anchor was taken wins: its scroll event,
   * still to come, takes the new anchor.
   */
  const restore = (asked = false): void => {
    const el = scroller.current;
    if (!el) return;
    if (state.stick) {
      const end = el.scrollHeight - el.clientHeight;
      if (Math.abs(el.scrollTop - end) >= 1) el.scrollTop = end;
      state.scrollTop = el.scrollTop;
      return;
    }
    const i = anchorIndex();
    if (i < 0 || !state.anchor) return;
    const want = areaTop() + layout.top(i) + state.anchor.offset;
    if (Math.abs(state.scrollTop - want) < 1) return;
    if (!asked && state.scrollTop >= 0 && Math.abs(el.scrollTop - state.scrollTop) >= 1) return;
    el.scrollTop = want;
    state.scrollTop = el.scrollTop;
  };

  /** Whether the rendered items cover the viewport (by the heights known now). */
  const covered = (r: ItemRange): boolean => {
    const h = state.viewport || 1;
    const y = viewTop();
    return layout.top(r.start) <= Math.max(0, y) && layout.top(r.end) >= Math.min(layout.total(), y + h);
  };

  /** Renders again at the next frame (after its scroll event, which renders what it wants first). */
  const renderAtNextFrame = (): void => {
    state.correctFrame ??= requestAnimationFrame(() => {
      state.correctFrame = undefined;
      rerender();
    });
  };

  /**
   * After new heights: the spacers take them at once (not on the next render, which a browser may paint
   * after this frame), the position is restored, and the items render again if others are wanted: at
   * once where the viewport would show a gap, else at the next frame (items mounted inside the observer's
   * callback are measured only in a second round of its loop, which the browser cuts short).
   */
  const relayout = (): void => {
    const box = area.current;
    const r = state.rendered;
    const top = box?.firstElementChild as HTMLElement | null;
    const bottom = box?.lastElementChild as HTMLElement | null;
    if (top && bottom && top !== bottom) {
      // Unchanged heights are not written (the common case: the last item grew while the list follows
      // it), so nothing is left to lay out before the restore reads the scroll height.
      const above = `${layout.top(r.start)}px`;
      const below = `${layout.total() - layout.top(r.end)}px`;
      if (top.style.height !== above) top.style.height = above;
      if (bottom.style.height !== below) bottom.style.height = below;
    }
    restore();
    const next = wanted();
    if (next.start === r.start && next.end === r.end) return;
    if (!covered(r) || typeof requestAnimationFrame !== 'function') rerender();
    else renderAtNextFrame();
  };

  const observer = useRef<ResizeObserver | undefined>(undefined);
  useLayoutEffect(() => {
    const el = scroller.current;
    const inner = after.current;
    if (!el || !inner || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      let changed = false;
      const top = area.current?.offsetTop;
      if (top !== undefined && top !== state.areaTop) {
        state.areaTop = top;
        changed = true;
      }
      for (const e of entries) {
        if (e.target === el) {
          if (el.clientHeight !== state.viewport) {
            state.viewport = el.clientHeight;
            changed = true;
          }
          continue;
        }
        const data = (e.target as HTMLElement).dataset;
        if (data?.itemId !== undefined) changed = layout.measure(data.itemId, blockSize(e), data.sizeClass) || changed;
      }
      if (changed) relayout();
      else restore();
    });
    ro.observe(el);
    ro.observe(inner);
    observer.current = ro;
    return () => {
      ro.disconnect();
      observer.current = undefined;
      state.observed.clear();
      if (state.widenFrame !== undefined) cancelAnimationFrame(state.widenFrame);
      if (state.correctFrame !== undefined) cancelAnimationFrame(state.correctFrame);
      clearTimeout(state.budgetReset);
      state.widenFrame = undefined;
      state.correctFrame = undefined;
      state.budgetReset = undefined;
    };
  }, [state]);

  /** Each frame without a fast scroll step grows the overscan back by a part, until it is whole. */
  const widen = (): void => {
    state.widenFrame = undefined;
    if (state.scrolled) state.scrolled = false;
    else {
      state.overscan = Math.min(OVERSCAN, state.overscan + OVERSCAN / WIDEN_FRAMES);
      const next = wanted();
      if (next.start !== state.rendered.start || next.end !== state.rendered.end) rerender();
    }
    if (state.overscan < OVERSCAN) state.widenFrame = requestAnimationFrame(widen);
  };

  const range = wanted();
  // After a render: observe the items that mounted (the observer's first report, before this frame is
  // painted, gives their heights; measuring here would force a layout of every render). The position is
  // set here only when asked for; otherwise the observer's reports keep it.
  useLayoutEffect(() => {
    const box = area.current;
    if (!scroller.current || !box) return;
    const before = state.rendered;
    const overlap = Math.max(0, Math.min(range.end, before.end) - Math.max(range.start, before.start));
    if (state.overscan < OVERSCAN) state.mountedNow += range.end - range.start - overlap;
    state.rendered = range;
    // A render inside a frame (its scroll event, an animation frame callback) posts this task, which runs
    // after the frame's paint: the next frame's renders share a whole budget, its scroll event's first.
    if (state.mountedNow > 0 && state.budgetReset === undefined && typeof requestAnimationFrame === 'function')
      state.budgetReset = setTimeout(() => {
        state.budgetReset = undefined;
        state.mountedNow = 0;
        const next = wanted();
        if (next.start !== state.rendered.start || next.end !== state.rendered.end) renderAtNextFrame();
      }, 0);
    const ro = observer.current;
    for (const child of Array.from(box.children)) {
      if ((child as HTMLElement).dataset?.itemId === undefined || state.observed.has(child)) continue;
      state.observed.add(child);
      ro?.observe(child);
    }
    for (const child of state.observed) {
      if (child.parentNode === box) continue;
      state.observed.delete(child);
      ro?.unobserve(child);
    }
    if (state.restorePending || !ro) {
      state.restorePending = false;
      restore(true);
    }
  });

  const padTop = layout.top(range.start);
  return {
    range,
    padTop,
    padBottom: layout.total() - layout.top(range.end),
    stuck: state.stick,
    onScroll() {
      const el = scroller.current;
      if (!el) return;
      // Following the end, the event of our own scroll to it changes nothing (and reading the scroll
      // height here would lay out what the frame's render changed since).
      if (state.stick && el.scrollTop === state.scrollTop) return;
      const step = Math.abs(el.scrollTop - state.scrollTop);
      if (state.scrollTop >= 0 && step > FAST_STEP * (state.viewport || el.clientHeight) && typeof requestAnimationFrame === 'function') {
        state.overscan = 0;
        state.scrolled = true;
        spendMarkdownFrame();
        state.widenFrame ??= requestAnimationFrame(widen);
      }
      state.scrollTop = el.scrollTop;
      const wasStuck = state.stick;
      state.stick = el.scrollHeight - state.scrollTop - (state.viewport || el.clientHeight) < STICK_DISTANCE;
      if (state.stick) state.anchor = undefined;
      else {
        const y = el.scrollTop - areaTop();
        let i = layout.indexAt(y);
        // A sliver at the top is not what the user reads (a prompt jumped to sits just below one).
        if (i + 1 < layout.count && layout.top(i + 1) - y <= ANCHOR_SLIVER) i++;
        const id = layout.idAt(i);
        state.anchor = id === undefined ? undefined : { id, offset: y - layout.top(i) };
      }
      // Leaving the end or coming back to it renders too: whether additions are announced follows it.
      const next = wanted();
      if (next.start !== state.rendered.start || next.end !== state.rendered.end || state.stick !== wasStuck) rerender();
    },
    reveal(index, below) {
      const id = layout.idAt(index);
      if (id === undefined) return;
      state.stick = false;
      state.anchor = { id, offset: -below };
      state.restorePending = true;
      rerender();
    },
    position() {
      return (scroller.current?.scrollTop ?? 0) - areaTop();
    },
    itemTop(index) {
      return layout.top(index);
    },
  };
}
