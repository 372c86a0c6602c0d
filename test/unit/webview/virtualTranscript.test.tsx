import './setupDom';
import * as assert from 'node:assert/strict';
import { act } from 'preact/test-utils';
import type { TranscriptItem } from '../../../src/shared/transcript';
import { findMatches } from '../../../webview-ui/src/find/transcriptSearch';
import { MOUNT_BUDGET } from '../../../webview-ui/src/virtual/useVirtualList';
import { getByRole, keydown, mount, queryAllByRole, snapshot, typeInto, type Harness } from './helpers';

// jsdom lays nothing out: the sizes a browser would measure are given here (item heights by id, a 400 px
// viewport), and a ResizeObserver the test fires stands for the browser's.
const VIEWPORT = 400;
const ITEM = 50;
const heights = new Map<string, number>();
const scrollTops = new WeakMap<Element, number>();
const observers = new Set<FakeResizeObserver>();

class FakeResizeObserver {
  readonly targets = new Set<Element>();
  /** Like a browser's, an element's first observation is delivered after it is laid out. */
  private pending: Element[] = [];
  constructor(private readonly callback: (entries: ResizeObserverEntry[]) => void) {
    observers.add(this);
  }
  observe(el: Element): void {
    this.targets.add(el);
    this.pending.push(el);
  }
  deliver(): void {
    const els = this.pending.filter((el) => this.targets.has(el));
    this.pending = [];
    if (els.length) this.callback(els.map((el) => ({ target: el, borderBoxSize: [{ blockSize: el.getBoundingClientRect().height, inlineSize: 300 }] }) as unknown as ResizeObserverEntry));
  }
  unobserve(el: Element): void {
    this.targets.delete(el);
  }
  disconnect(): void {
    this.targets.clear();
    observers.delete(this);
  }
  fire(el: Element): void {
    if (!this.targets.has(el)) return;
    const h = el.getBoundingClientRect().height;
    this.callback([{ target: el, borderBoxSize: [{ blockSize: h, inlineSize: 300 }] } as unknown as ResizeObserverEntry]);
  }
}

const heightOf = (el: Element): number => {
  const id = (el as HTMLElement).dataset?.itemId;
  return id === undefined ? 0 : heights.get(id) ?? ITEM;
};
const isScroller = (el: Element) => el.classList.contains('transcript');
/** What a browser would lay out: the spacers' heights plus the rendered items'. */
function contentHeight(el: Element): number {
  const area = el.querySelector('.virtual-items');
  let h = 0;
  for (const c of Array.from(area?.children ?? [])) h += c.classList.contains('virtual-spacer') ? parseFloat((c as HTMLElement).style.height) || 0 : heightOf(c);
  return h;
}

const saved: Record<string, PropertyDescriptor | undefined> = {};
// The prototypes of the window the components render into: the global `document` belongs to the jsdom
// window of the test file loaded last, which need not be the one whose classes are global.
const domWindow = () => document.defaultView as unknown as { HTMLElement: typeof HTMLElement; Element: typeof Element };
let proto: Record<string, unknown> = {};
before(() => {
  const { HTMLElement: H, Element: E } = domWindow();
  proto = H.prototype as unknown as Record<string, unknown>;
  for (const k of ['clientHeight', 'scrollHeight', 'scrollTop']) saved[k] = Object.getOwnPropertyDescriptor(E.prototype, k) ?? Object.getOwnPropertyDescriptor(H.prototype, k);
  saved.rect = Object.getOwnPropertyDescriptor(E.prototype, 'getBoundingClientRect');
  Object.defineProperty(H.prototype, 'clientHeight', { configurable: true, get(this: Element) { return isScroller(this) ? VIEWPORT : 0; } });
  Object.defineProperty(H.prototype, 'scrollHeight', { configurable: true, get(this: Element) { return isScroller(this) ? Math.max(VIEWPORT, contentHeight(this)) : 0; } });
  Object.defineProperty(H.prototype, 'scrollTop', {
    configurable: true,
    get(this: Element) { return scrollTops.get(this) ?? 0; },
    set(this: HTMLElement, v: number) { scrollTops.set(this, Math.max(0, Math.min(v, this.scrollHeight - this.clientHeight))); },
  });
  proto.getBoundingClientRect = function (this: Element) {
    const h = heightOf(this);
    return { top: 0, bottom: h, left: 0, right: 300, width: 300, height: h, x: 0, y: 0, toJSON: () => ({}) };
  };
  (globalThis as Record<string, unknown>).ResizeObserver = FakeResizeObserver;
});
after(() => {
  for (const k of ['clientHeight', 'scrollHeight', 'scrollTop']) delete proto[k];
  delete proto.getBoundingClientRect;
  delete (globalThis as Record<string, unknown>).ResizeObserver;
});

const user = (i: number): TranscriptItem => ({ kind: 'user_message', id: `m${i}`, content: [{ type: 'text', text: `prompt ${i}` }] });
const agent = (i: number, text = `answer ${i}`): TranscriptItem => ({ kind: 'agent_message', id: `m${i}`, content: [{ type: 'text', text }] });
/** A session of `n` items: a prompt every 4th, answers between. */
const session = (n: number, special: Record<number, string> = {}): TranscriptItem[] =>
  Array.from({ length: n }, (_, i) => (special[i] !== undefined ? agent(i, special[i]) : i % 4 === 0 ? user(i) : agent(i)));

const scroller = (h: Harness) => h.root.querySelector('.transcript') as HTMLElement;
const renderedIds = (h: Harness) => Array.from(h.root.querySelectorAll('.transcript .item')).map((e) => (e as HTMLElement).dataset.itemId);
/** The browser's rendering step: the observer's first reports of what mounted (and what that mounted). */
function layOut(): void {
  for (let i = 0; i < 5; i++) act(() => [...observers].forEach((o) => o.deliver()));
}
function scrollTo(h: Harness, top: number): void {
  act(() => {
    scroller(h).scrollTop = top;
    scroller(h).dispatchEvent(new Event('scroll'));
  });
  layOut();
}
/** A scroll as the browser dispatches it: its event at the start of a frame, before the frame's animation frame callbacks. */
function scrollInFrame(h: Harness, top: number): Promise<void> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      scrollTo(h, top);
      resolve();
    }),
  );
}
/** The animation frames after a scroll: the list widens back to its overscan once the scrolling stopped. */
async function settle(h: Harness): Promise<void> {
  let last = '';
  for (let frame = 0, same = 0; frame < 60 && same < 3; frame++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    layOut();
    const now = renderedIds(h).join();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}
/** Until the current frame is over: its animation frame callbacks (and their renders), then a task after its paint. */
function endOfFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
function open(items: TranscriptItem[]): Harness {
  const h = mount(snapshot(items));
  layOut();
  return h;
}
/** Where item `id` is laid out relative to the viewport's top, as the browser would have it. */
function viewportTop(h: Harness, id: string): number {
  const area = h.root.querySelector('.virtual-items')!;
  let y = 0;
  for (const c of Array.from(area.children)) {
    if ((c as HTMLElement).dataset.itemId === id) return y - scroller(h).scrollTop;
    y += c.classList.contains('virtual-spacer') ? parseFloat((c as HTMLElement).style.height) || 0 : heightOf(c);
  }
  throw new Error(`${id} is not rendered`);
}
const promptStatus = (h: Harness) => h.root.querySelector('.transcript + .visually-hidden[role="status"], .find-bar ~ .visually-hidden[role="status"]')?.textContent;
function resized(h: Harness, id: string, height: number): void {
  heights.set(id, height);
  const el = h.root.querySelector(`.item[data-item-id="${id}"]`);
  assert.ok(el, `${id} is rendered`);
  act(() => {
    for (const o of observers) o.fire(el);
  });
}

describe('webview: the virtualized transcript', () => {
  let h: Harness;
  afterEach(() => {
    h?.unmount();
    heights.clear();
  });

  it('a 10,000-item session opens at the end with only the items near the viewport in the DOM', () => {
    h = open(session(10_000));
    const ids = renderedIds(h);
    assert.ok(ids.length > 0 && ids.length <= 2 * (VIEWPORT + 2 * 800) / ITEM, `rendered ${ids.length}`);
    assert.equal(ids[ids.length - 1], 'm9999', 'the last item is shown');
    assert.ok(!ids.includes('m0'));
    const el = scroller(h);
    assert.equal(el.scrollTop, el.scrollHeight - el.clientHeight, 'stuck to the bottom');
    assert.equal(el.scrollHeight, 10_000 * ITEM, 'the spacers stand for the items not rendered');
    assert.equal(getByRole(h.root, 'log', 'Transcript'), el, 'still the log');
  });

  it('what is in the DOM follows the scroll position: the start, the middle, the end', async () => {
    h = open(session(10_000));
    scrollTo(h, 0);
    await settle(h);
    let ids = renderedIds(h);
    assert.equal(ids[0], 'm0', 'the first message, without any click');
    assert.ok(!ids.includes('m9999'));
    assert.match(h.root.textContent!, /prompt 0/);
    scrollTo(h, 5000 * ITEM);
    await settle(h);
    ids = renderedIds(h);
    assert.ok(ids.includes('m5000') && ids.includes('m5007'), `around the middle: ${ids[0]}…${ids[ids.length - 1]}`);
    assert.ok(!ids.includes('m0') && !ids.includes('m9999'));
    // The spacers keep every item where the full list would have it.
    const top = parseFloat((h.root.querySelector('.virtual-spacer') as HTMLElement).style.height);
    assert.equal(top, Number(ids[0]!.slice(1)) * ITEM);
    scrollTo(h, scroller(h).scrollHeight);
    await settle(h);
    assert.equal(renderedIds(h).pop(), 'm9999');
  });

  it('scrolled up less than an item from the end, stops announcing additions; back at the end, announces them again', async () => {
    // A last item of 99 px puts the end 49 px into an item at the overscan's top edge.
    heights.set('m199', 99);
    h = open(session(200));
    await settle(h);
    const el = scroller(h);
    const live = () => h.root.querySelector('.virtual-items')?.getAttribute('aria-live');
    assert.equal(live(), null);
    // Two steps inside one item: the second leaves the end without changing which items are rendered.
    const ids = renderedIds(h).join();
    scrollTo(h, el.scrollTop - 10);
    assert.equal(live(), null, 'close enough to the end to follow it');
    scrollTo(h, el.scrollTop - 39);
    assert.equal(renderedIds(h).join(), ids);
    assert.equal(live(), 'off', 'reading just above the end');
    scrollTo(h, el.scrollHeight);
    assert.equal(live(), null);
  });

  it('scrolled fast, mounts a budget of items a frame, renders the viewport alone, then the items beyond it again once the scrolling stops', async () => {
    h = open(session(10_000));
    const full = renderedIds(h).length;
    const el = scroller(h);
    let shownFast = 0;
    // Three viewports a step, as a fling or a dragged scrollbar does.
    const covered = (ids: (string | undefined)[]) => {
      const top = Number(ids[0]!.slice(1)) * ITEM;
      return top <= el.scrollTop && top + ids.length * ITEM >= el.scrollTop + VIEWPORT;
    };
    for (let step = 1; step <= 5; step++) {
      let before = new Set(renderedIds(h));
      // A frame begins with the scroll event; its animation frame callbacks follow before it is painted.
      await scrollInFrame(h, el.scrollTop - 3 * VIEWPORT);
      // The step's frame and the next ones each mount at most the budget, from the viewport's top down.
      for (let frame = 0; ; frame++) {
        if (frame > 0) await endOfFrame();
        layOut();
        const ids = renderedIds(h);
        const mounted = ids.filter((id) => !before.has(id)).length;
        assert.ok(mounted <= MOUNT_BUDGET, `step ${step}, frame ${frame}: ${mounted} new items`);
        if (covered(ids)) {
          shownFast = Math.max(shownFast, ids.length);
          break;
        }
        assert.ok(frame < 4, `step ${step}: the viewport is covered within a few frames`);
        before = new Set(ids);
      }
    }
    assert.ok(shownFast < full, `the viewport and what the frames since widened, not the whole overscan: ${shownFast} of ${full} items`);
    const seen = renderedIds(h).find((id) => viewportTop(h, id!) >= 0)!;
    const at = viewportTop(h, seen);
    // The frames after the last step bring the items beyond the viewport back, and nothing on screen moves.
    await settle(h);
    assert.ok(renderedIds(h).length >= full - 1, `widened again: ${renderedIds(h).length} of ${full}`);
    assert.equal(viewportTop(h, seen), at);
  });

  it("a fast scroll's frame mounts the items it shows, and their Markdown renders in the task after the frame", async () => {
    h = open(session(10_000));
    const answers = () => Array.from(h.root.querySelectorAll('.transcript .item[data-kind="agent_message"]'));
    const texts = () => answers().map((a) => a.querySelector('.md')?.textContent ?? '');
    // Items no other test renders (a rendered message keeps its Markdown in markdownCache.ts).
    scrollTo(h, 2500 * ITEM);
    assert.ok(answers().length > 0, 'answers are mounted in the scroll\'s frame');
    assert.deepEqual(texts().filter((t) => /answer \d+/.test(t)), [], 'their Markdown waits for the task after the frame');
    await endOfFrame();
    layOut();
    assert.ok(texts().every((t) => /answer \d+/.test(t)), `then shown: ${texts().join(' | ')}`);
    // Scrolling slowly (less than a viewport a step) renders the Markdown in the frame.
    scrollTo(h, scroller(h).scrollTop - VIEWPORT / 2);
    assert.ok(texts().every((t) => /answer \d+/.test(t)), `a slow step: ${texts().join(' | ')}`);
  });

  it('keeps what the user looks at in place when an item above it grows', async () => {
    h = open(session(1000));
    scrollTo(h, 500 * ITEM + 10);
    await settle(h);
    const ids = renderedIds(h);
    const above = ids[2]!; // rendered, above the viewport
    assert.ok(Number(above.slice(1)) < 500);
    const seen = viewportTop(h, 'm500');
    assert.equal(seen, -10);
    const before = scroller(h).scrollTop;
    resized(h, above, ITEM + 120);
    assert.equal(viewportTop(h, 'm500'), seen, 'the item at the top stays where it was');
    assert.ok(scroller(h).scrollTop >= before + 120, 'scrolled by what the item above grew');
    // An item below the viewport's top grows: what is on screen does not move.
    resized(h, 'm505', ITEM + 70);
    assert.equal(viewportTop(h, 'm500'), seen);
    // Items taller than estimated, measured as they scroll in above, do not move what is on screen.
    for (let i = 470; i < 490; i++) if (!h.root.querySelector(`.item[data-item-id="m${i}"]`)) heights.set(`m${i}`, 90);
    scrollTo(h, scroller(h).scrollTop - 8 * ITEM);
    assert.ok(renderedIds(h).includes('m485'), 'the taller items are rendered');
    assert.equal(viewportTop(h, 'm500'), seen + 8 * ITEM, 'moved by the scroll only');
  });

  it('a scroll whose event has not come yet is not undone by a measurement of an item above', async () => {
    h = open(session(1000));
    scrollTo(h, 500 * ITEM + 10);
    await settle(h);
    const el = scroller(h);
    const above = renderedIds(h)[2]!;
    act(() => {
      el.scrollTop = 300 * ITEM; // the user's scroll: its event is dispatched at the next frame
    });
    resized(h, above, ITEM + 120);
    assert.equal(el.scrollTop, 300 * ITEM, 'where the user scrolled to');
    act(() => {
      el.dispatchEvent(new Event('scroll'));
    });
    layOut();
    const ids = renderedIds(h).map((id) => Number(id!.slice(1)));
    assert.ok(ids.length > 0 && ids.every((n) => Math.abs(n - 300) < 20), `the items there are rendered: ${ids.join()}`);
  });

  it('follows the end while the last message streams, not after the user scrolled up', () => {
    h = open(session(200));
    h.sendOps('s1', [{ op: 'appendText', index: 199, id: 'm199', contentIndex: 0, text: ' more' }]);
    layOut();
    resized(h, 'm199', 600);
    const el = scroller(h);
    assert.equal(el.scrollTop, el.scrollHeight - el.clientHeight, 'still at the end');
    scrollTo(h, el.scrollHeight - el.clientHeight - 300);
    const top = renderedIds(h).find((id) => viewportTop(h, id!) > 0)!;
    const seen = viewportTop(h, top);
    resized(h, 'm199', 900);
    assert.equal(viewportTop(h, top), seen, 'the user reading above is left where they are');
    assert.ok(el.scrollTop < el.scrollHeight - el.clientHeight - 300);
    assert.equal(h.root.querySelector('.virtual-items')?.getAttribute('aria-live'), 'off', 'items scrolled in are not announced');
    scrollTo(h, el.scrollHeight);
    assert.equal(h.root.querySelector('.virtual-items')?.getAttribute('aria-live'), null, 'at the end, additions are announced by the log');
  });

  it('a prompt sent while scrolled up shows the end, also when its whole turn arrives in one batch', async () => {
    h = open(session(200));
    scrollTo(h, 0);
    await settle(h);
    assert.ok(renderedIds(h).includes('m0'));
    // A quick agent: the prompt and the finished answer reach the webview together, and nothing renders after.
    h.sendOps('s1', [
      { op: 'append', item: user(200) },
      { op: 'append', item: agent(201, 'a quick answer') },
    ]);
    layOut();
    const el = scroller(h);
    assert.equal(el.scrollTop, el.scrollHeight - el.clientHeight, 'at the end');
    const shown = renderedIds(h).filter((id) => viewportTop(h, id!) >= 0 && viewportTop(h, id!) < VIEWPORT);
    assert.ok(shown.includes('m200') && shown.includes('m201'), `the prompt and its answer are on screen (shown: ${shown.join(', ')})`);
  });

  it('a second init of the same session (the webview asked for its state again) leaves the reader where they were', () => {
    h = open(session(2000));
    scrollTo(h, 1000 * ITEM);
    const seen = renderedIds(h).find((id) => viewportTop(h, id!) >= 0)!;
    const top = viewportTop(h, seen);
    h.send({ type: 'init', protocolVersion: 2, snapshot: snapshot(session(2000)) });
    h.settle();
    layOut();
    assert.equal(scroller(h).scrollTop, 1000 * ITEM, 'not sent back to the end');
    assert.equal(viewportTop(h, seen), top);
  });

  it('find (Ctrl+F) searches the whole session, literally, and scrolls to a match far above', async () => {
    h = open(session(5000, { 3: 'the needle is here', 4001: 'a.c literally', 4002: 'abc is not a match' }));
    assert.ok(!renderedIds(h).includes('m3'));
    keydown(h.root.querySelector('textarea')!, 'f', { ctrlKey: true });
    const box = getByRole(h.root, 'searchbox', 'Find in session') as HTMLInputElement;
    typeInto(box, 'NEEDLE');
    layOut();
    assert.match(h.root.querySelector('.find-count')!.textContent!, /1 of 1/);
    assert.ok(renderedIds(h).includes('m3'), 'the match is rendered');
    await endOfFrame(); // its Markdown may wait for the next frame's budget
    assert.match(h.root.textContent!, /the needle is here/);
    typeInto(box, 'a.c');
    assert.match(h.root.querySelector('.find-count')!.textContent!, /1 of 1/, 'a regular-expression-like string is literal');
    typeInto(box, 'answer 12');
    const count = findMatches(session(5000), 'answer 12').length;
    assert.ok(count > 50);
    assert.match(h.root.querySelector('.find-count')!.textContent!, new RegExp(`of ${count}$`));
    const first = h.root.querySelector('.find-count')!.textContent!;
    keydown(box, 'Enter');
    assert.notEqual(h.root.querySelector('.find-count')!.textContent, first, 'Enter goes to the next match');
    keydown(box, 'Enter', { shiftKey: true });
    assert.equal(h.root.querySelector('.find-count')!.textContent, first, 'Shift+Enter back');
    typeInto(box, 'no such text (.*)');
    assert.equal(h.root.querySelector('.find-count')!.textContent, 'No results');
    keydown(box, 'Escape');
    assert.equal(queryAllByRole(h.root, 'searchbox', 'Find in session').length, 0, 'Escape closes it');
  });

  it('Alt+Up / Alt+Down jump to the previous / next prompt, anywhere in the session', () => {
    h = open(session(2000));
    const box = h.root.querySelector('textarea')!;
    // At the end, the last prompts are on screen: the previous one is the one above the viewport.
    // (Here prompt 499 is at the viewport's top.)
    keydown(box, 'ArrowUp', { altKey: true });
    assert.equal(scroller(h).scrollTop, 1988 * ITEM - 4, 'that prompt at the top');
    assert.equal(promptStatus(h), 'Prompt 498 of 500');
    keydown(box, 'ArrowUp', { altKey: true });
    assert.equal(scroller(h).scrollTop, 1984 * ITEM - 4);
    keydown(box, 'ArrowDown', { altKey: true });
    assert.equal(scroller(h).scrollTop, 1988 * ITEM - 4);
    assert.equal(promptStatus(h), 'Prompt 498 of 500');
    scrollTo(h, 0);
    keydown(box, 'ArrowDown', { altKey: true });
    assert.equal(scroller(h).scrollTop, 4 * ITEM - 4, 'from the start, the second prompt (the first is at the top)');
    scrollTo(h, 0);
    keydown(box, 'ArrowUp', { altKey: true });
    assert.equal(promptStatus(h), 'No earlier prompt');
    assert.equal(box.value, '', 'the composer did not recall a sent message');
  });

  it('a prompt a jump put at the top stays there when the answer above it changes height', () => {
    h = open(session(2000));
    const box = h.root.querySelector('textarea')!;
    keydown(box, 'ArrowUp', { altKey: true });
    keydown(box, 'ArrowUp', { altKey: true });
    assert.equal(viewportTop(h, 'm1984'), 4);
    // The browser's scroll event for the jump, then the answer above the prompt, 4 px of it on screen, grows
    // (its Markdown rendered late): the prompt the user jumped to does not move.
    act(() => scroller(h).dispatchEvent(new Event('scroll')));
    layOut();
    resized(h, 'm1983', ITEM + 6);
    assert.equal(viewportTop(h, 'm1984'), 4, 'the prompt stays where the jump put it');
    keydown(box, 'ArrowDown', { altKey: true });
    assert.equal(viewportTop(h, 'm1988'), 4, 'Alt+Down goes to the next prompt');
    assert.equal(promptStatus(h), 'Prompt 498 of 500');
  });

  it('a prompt a few pixels off the top counts as the one at the top', async () => {
    h = open(session(2000));
    const box = h.root.querySelector('textarea')!;
    scrollTo(h, 1000 * ITEM - 10); // prompt m1000 10 px below the viewport's top
    await settle(h);
    keydown(box, 'ArrowDown', { altKey: true });
    assert.equal(viewportTop(h, 'm1004'), 4, 'Alt+Down: the prompt after the one on top');
    scrollTo(h, 1000 * ITEM + 3); // prompt m1000 3 px cut off at the top
    await settle(h);
    keydown(box, 'ArrowUp', { altKey: true });
    assert.equal(viewportTop(h, 'm996'), 4, 'Alt+Up: the prompt before the one on top');
  });
});
