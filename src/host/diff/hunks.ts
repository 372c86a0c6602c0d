// Line hunks between two texts, computed with jsdiff, kept byte-exact: each hunk carries the exact
// removed and added text (line endings included) and its character offsets, so reverting or keeping a
// hunk is a splice that restores the bytes, never a re-join of lines that could change EOLs.
import { diffLines } from 'diff';

export interface Hunk {
  /** 0-based first line in the old text (the insertion line when `oldLines` is 0). */
  oldStart: number;
  oldLines: number;
  /** 0-based first line in the new text (the line after which the deletion was, when `newLines` is 0). */
  newStart: number;
  newLines: number;
  /** Character offset of `oldText` in the old text. */
  oldOffset: number;
  /** Character offset of `newText` in the new text. */
  newOffset: number;
  oldText: string;
  newText: string;
}

export interface LineCounts {
  added: number;
  removed: number;
}

/** Give up on line diffs that take longer than this (pathological inputs); callers show "no counts". */
const DIFF_TIMEOUT_MS = 3000;

/**
 * Hunks turning `oldText` into `newText`; each maximal run of changed lines is one hunk (no context
 * merging, so per-hunk decisions are as fine as the change). Returns undefined if the diff timed out.
 */
export function computeHunks(oldText: string, newText: string): Hunk[] | undefined {
  if (oldText === newText) return [];
  const changes = diffLines(oldText, newText, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return undefined;
  const hunks: Hunk[] = [];
  let oldLine = 0;
  let newLine = 0;
  let oldOffset = 0;
  let newOffset = 0;
  let open: Hunk | undefined;
  for (const change of changes) {
    const lines = change.count;
    if (!change.added && !change.removed) {
      open = undefined;
      oldLine += lines;
      newLine += lines;
      oldOffset += change.value.length;
      newOffset += change.value.length;
      continue;
    }
    if (!open) {
      open = { oldStart: oldLine, oldLines: 0, newStart: newLine, newLines: 0, oldOffset, newOffset, oldText: '', newText: '' };
      hunks.push(open);
    }
    if (change.removed) {
      open.oldLines += lines;
      open.oldText += change.value;
      oldLine += lines;
      oldOffset += change.value.length;
    } else {
      open.newLines += lines;
      open.newText += change.value;
      newLine += lines;
      newOffset += change.value.length;
    }
  }
  return hunks;
}

export function sumCounts(hunks: readonly Hunk[]): LineCounts {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.newLines;
    removed += h.oldLines;
  }
  return { added, removed };
}

/** `newText` with one hunk (computed from oldText -> newText) put back to its old content. */
export function revertHunk(newText: string, hunk: Hunk): string {
  return newText.slice(0, hunk.newOffset) + hunk.oldText + newText.slice(hunk.newOffset + hunk.newText.length);
}

/** `oldText` with one hunk (computed from oldText -> newText) applied: the new baseline after a Keep. */
export function keepHunk(oldText: string, hunk: Hunk): string {
  return oldText.slice(0, hunk.oldOffset) + hunk.newText + oldText.slice(hunk.oldOffset + hunk.oldText.length);
}

/** Revert several hunks of the same diff at once (applied from the end so offsets stay valid). */
export function revertHunks(newText: string, hunks: readonly Hunk[]): string {
  let text = newText;
  for (const h of [...hunks].sort((a, b) => b.newOffset - a.newOffset)) text = revertHunk(text, h);
  return text;
}

function sameHunk(a: Hunk, b: Hunk): boolean {
  return a.oldOffset === b.oldOffset && a.oldText === b.oldText && a.newText === b.newText;
}

export interface HunkOwnership {
  /** Hunks of baseline -> current that are exactly the agent's (safe to revert without losing user work). */
  agent: Hunk[];
  /** Hunks the user made or touched after the agent wrote. */
  user: Hunk[];
}

/**
 * Three-way view: which differences between the baseline and the current text are the agent's.
 * A hunk of baseline -> current is the agent's when the same hunk appears in baseline -> agentText.
 * Hunks the user reverted simply disappear; hunks the user edited count as the user's (conservative).
 */
export function classifyHunks(baseline: string, agentText: string, current: string): HunkOwnership | undefined {
  const currentHunks = computeHunks(baseline, current);
  if (!currentHunks) return undefined;
  if (current === agentText) return { agent: currentHunks, user: [] };
  const agentHunks = computeHunks(baseline, agentText);
  if (!agentHunks) return undefined;
  const agent: Hunk[] = [];
  const user: Hunk[] = [];
  for (const h of currentHunks) (agentHunks.some((a) => sameHunk(a, h)) ? agent : user).push(h);
  return { agent, user };
}
