// Small queries over hunks that only the tests ask.
import { computeHunks, sumCounts, type Hunk, type LineCounts } from '../../../src/host/diff/hunks';

/** Added/removed line counts; undefined when the diff timed out. */
export function countLines(oldText: string, newText: string): LineCounts | undefined {
  const hunks = computeHunks(oldText, newText);
  return hunks && sumCounts(hunks);
}

/** The hunk whose new-side lines contain `line` (0-based), or that sits at it for a pure deletion. */
export function hunkAtLine(hunks: readonly Hunk[], line: number): Hunk | undefined {
  return hunks.find((h) => (h.newLines === 0 ? h.newStart === line : line >= h.newStart && line < h.newStart + h.newLines));
}
