// Where each transcript item sits in the virtual list: heights measured in the DOM where the item was
// rendered, estimated where it never was (the mean of the measured items of its size class, an item's kind
// and text length: sizeClass.ts; the mean of all measured before its class has any); tops as prefix sums.

/** The height assumed for an item before any item of the list was measured (px). */
export const FIRST_ESTIMATE = 80;
/** How far beyond the viewport, above and below, items are kept in the DOM (px). */
export const OVERSCAN = 800;
/** A measured height counts at most this much in the estimate: one long answer does not inflate it. */
const ESTIMATE_CAP = 400;
/** The same within a size class, whose items are alike in length: only an outlier (an expanded card) is capped. */
const CLASS_ESTIMATE_CAP = 1600;
/** The viewport height assumed while the list has none (hidden, not laid out yet). */
export const FALLBACK_VIEWPORT = 800;

export interface ItemRange {
  /** First index rendered. */
  start: number;
  /** One past the last index rendered. */
  end: number;
}

const NO_CLASSES: readonly string[] = [];

/** A running mean of measured heights (each capped). */
interface Mean {
  sum: number;
  count: number;
}

export class ItemLayout {
  private readonly heights = new Map<string, { height: number; sizeClass: string | undefined }>();
  private readonly all: Mean = { sum: 0, count: 0 };
  private readonly byClass = new Map<string, Mean>();
  private ids: readonly string[] = [];
  private classes: readonly (string | undefined)[] = [];
  private tops = new Float64Array(1);
  private stale = true;

  /**
   * The items, in order, with each one's size class (its estimate's group; none: the overall mean).
   * Heights already known for an id are kept.
   */
  setIds(ids: readonly string[], classes: readonly (string | undefined)[] = NO_CLASSES): void {
    if (ids === this.ids && classes === this.classes) return;
    this.ids = ids;
    this.classes = classes;
    this.stale = true;
  }

  get count(): number {
    return this.ids.length;
  }

  idAt(index: number): string | undefined {
    return this.ids[index];
  }

  indexOf(id: string): number {
    return this.ids.indexOf(id);
  }

  /** The height used for an item of `sizeClass` never measured: the mean of those measured in its class (each capped), else of all. */
  estimate(sizeClass?: string): number {
    const m = (sizeClass !== undefined && this.byClass.get(sizeClass)) || this.all;
    return m.count ? m.sum / m.count : FIRST_ESTIMATE;
  }

  isMeasured(id: string): boolean {
    return this.heights.has(id);
  }

  /**
   * Records an item's rendered height (and its size class then). 0 is no measurement (an element not laid
   * out: a hidden view). Returns whether the layout changed.
   */
  measure(id: string, height: number, sizeClass?: string): boolean {
    if (!(height > 0)) return false;
    const old = this.heights.get(id);
    if (old !== undefined && Math.abs(old.height - height) < 0.5 && old.sizeClass === sizeClass) return false;
    if (old) this.tally(old.height, old.sizeClass, -1);
    this.tally(height, sizeClass, 1);
    this.heights.set(id, { height, sizeClass });
    this.stale = true;
    return true;
  }

  private tally(height: number, sizeClass: string | undefined, sign: 1 | -1): void {
    this.all.sum += Math.min(height, ESTIMATE_CAP) * sign;
    this.all.count += sign;
    if (sizeClass === undefined) return;
    let m = this.byClass.get(sizeClass);
    if (!m) this.byClass.set(sizeClass, (m = { sum: 0, count: 0 }));
    m.sum += Math.min(height, CLASS_ESTIMATE_CAP) * sign;
    m.count += sign;
    if (m.count === 0) this.byClass.delete(sizeClass);
  }

  private update(): void {
    if (!this.stale) return;
    const n = this.ids.length;
    if (this.tops.length < n + 1) this.tops = new Float64Array(Math.max(n + 1, this.tops.length * 2));
    const est = this.estimate();
    const classEstimates = new Map<string, number>();
    let y = 0;
    for (let i = 0; i < n; i++) {
      this.tops[i] = y;
      const measured = this.heights.get(this.ids[i]);
      if (measured) {
        y += measured.height;
        continue;
      }
      const c = this.classes[i];
      if (c === undefined) {
        y += est;
        continue;
      }
      let e = classEstimates.get(c);
      if (e === undefined) classEstimates.set(c, (e = this.estimate(c)));
      y += e;
    }
    this.tops[n] = y;
    this.stale = false;
  }

  /** Top of item `index` (index = count: the bottom of the last). */
  top(index: number): number {
    this.update();
    return this.tops[Math.max(0, Math.min(index, this.ids.length))];
  }

  total(): number {
    return this.top(this.ids.length);
  }

  /** The index of the item at `y` (clamped to the list). */
  indexAt(y: number): number {
    this.update();
    const n = this.ids.length;
    if (n === 0) return 0;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.tops[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The items to render for a viewport from `scrollTop`, `viewport` px high, with `overscan` px either side. */
  range(scrollTop: number, viewport: number, overscan = OVERSCAN): ItemRange {
    const n = this.ids.length;
    if (n === 0) return { start: 0, end: 0 };
    const h = viewport > 0 ? viewport : FALLBACK_VIEWPORT;
    const start = this.indexAt(Math.max(0, scrollTop - overscan));
    const end = Math.min(n, this.indexAt(scrollTop + h + overscan) + 1);
    return { start, end };
  }

  /** The items to render for a viewport stuck to the bottom. */
  bottomRange(viewport: number, overscan = OVERSCAN): ItemRange {
    const h = viewport > 0 ? viewport : FALLBACK_VIEWPORT;
    return this.range(Math.max(0, this.total() - h), h, overscan);
  }
}
