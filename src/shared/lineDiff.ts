// The one line diff the chat card and the changed-files list both count with (jsdiff's diffLines), so a
// change shows the same +/− everywhere. A new file's last newline ends its last line; it is no line.
import { diffLines } from 'diff';

export interface PreviewLine {
  sign: '+' | '-' | ' ';
  text: string;
}

export interface DiffPreviewLines {
  lines: PreviewLine[];
  added: number;
  removed: number;
  /** Changed lines left out of `lines` (beyond `max`). */
  more: number;
  /** The diff took too long: no lines and no counts. */
  tooLarge?: true;
}

/** Above this, jsdiff gives up and the preview says the diff is too large (the diff editor still has it). */
const PREVIEW_TIMEOUT_MS = 150;

/**
 * Changed lines of `oldText` (null: a new file) → `newText`, each run of changes with the unchanged line
 * before it, at most `max` lines shown; `added` / `removed` count every changed line.
 */
export function previewDiff(oldText: string | null, newText: string, max = 16): DiffPreviewLines {
  const changes = diffLines(oldText ?? '', newText, { timeout: PREVIEW_TIMEOUT_MS });
  if (!changes) return { lines: [], added: 0, removed: 0, more: 0, tooLarge: true };
  const all: PreviewLine[] = [];
  let added = 0;
  let removed = 0;
  let lastContext: string | undefined;
  for (const change of changes) {
    const lines = splitLines(change.value);
    if (!change.added && !change.removed) {
      lastContext = lines[lines.length - 1];
      continue;
    }
    if (lastContext !== undefined) all.push({ sign: ' ', text: lastContext });
    lastContext = undefined;
    for (const text of lines) all.push({ sign: change.added ? '+' : '-', text });
    if (change.added) added += change.count;
    else removed += change.count;
  }
  const shown = all.slice(0, max);
  return { lines: shown, added, removed, more: all.length - shown.length };
}

/** Lines of a diff part: its final line terminator ends the last line, it does not start another. */
function splitLines(value: string): string[] {
  const lines = value.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
