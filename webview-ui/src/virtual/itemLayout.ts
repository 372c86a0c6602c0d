// Where each transcript item sits in the virtual list: heights measured in the DOM where the item was
// rendered, estimated (the mean of those measured) where it never was; tops as prefix sums.

/** The height assumed for an item before any item of the list was measured (px). */
export const FIRST_ESTIMATE = 80;
/** How far beyond the viewport, above and below, items are kept in the DOM (px). */
export const OVERSCAN = 800;
/** A measured height counts at most this much in the estimate: one long answer does not inflate it. */
const ESTIMATE_CAP = 400;
/** The viewport height assumed while the list has none (hidden, not laid out yet). */
export const FALLBACK_VIEWPORT = 800;

export interface ItemRange {
  /** First index rendered. */
  start: number;
  /** One past the last index rendered. */
  end: number;
}

export class ItemLayout {
  private readonly heights = new Map<string, number>();
  private measuredSum = 0;
  private ids: readonly string[] = [];
  private tops = new Float64Array(1);
  private stale = true;

  /** The items, in order; heights already known for an id are kept. */
  setIds(ids: readonly string[]): void {
    if (ids === this.ids) return;
    this.ids = ids;
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

  /** The height used for items never measured: the mean of those measured (each capped). */
  estimate(): number {
    return this.heights.size ? this.measuredSum / this.heights.size : FIRST_ESTIMATE;
  }

  isMeasured(id: string): boolean {
    return this.heights.has(id);
  }

  /**
   * Records an item's rendered height. 0 is no measurement (an element not laid out: a hidden view).
   * Returns whether the layout changed.
   */
  measure(id: string, height: number): boolean {
    if (!(height > 0)) return false;
    const old = this.heights.get(id);
    if (old !== undefined && Math.abs(old - height) < 0.5) return false;
    this.measuredSum += Math.min(height, ESTIMATE_CAP) - Math.min(old ?? 0, ESTIMATE_CAP);
    this.heights.set(id, height);
    this.stale = true;
    return true;
  }

  private update(): void {
    if (!this.stale) return;
    const n = this.ids.length;
    if (this.tops.length < n + 1) this.tops = new Float64Array(Math.max(n + 1, this.tops.length * 2));
    const est = this.estimate();
    let y = 0;
    for (let i = 0; i < n; i++) {
      this.tops[i] = y;
      y += this.heights.get(this.ids[i]) ?? est;
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

  /** The items to render for a viewport from `scrollTop`, `viewport` px high, with OVERSCAN either side. */
  range(scrollTop: number, viewport: number): ItemRange {
    const n = this.ids.length;
    if (n === 0) return { start: 0, end: 0 };
    const h = viewport > 0 ? viewport : FALLBACK_VIEWPORT;
    const start = this.indexAt(Math.max(0, scrollTop - OVERSCAN));
    const end = Math.min(n, this.indexAt(scrollTop + h + OVERSCAN) + 1);
    return { start, end };
  }

  /** The items to render for a viewport stuck to the bottom. */
  bottomRange(viewport: number): ItemRange {
    const h = viewport > 0 ? viewport : FALLBACK_VIEWPORT;
    return this.range(Math.max(0, this.total() - h), h);
  }
}
