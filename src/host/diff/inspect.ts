// Pure checks on a file before it is diffed: inside the workspace, binary, too large. Each problem
// comes with the sentence the user sees, so every entry point reports the same clear message.
import * as path from 'path';
import { isInsideRoot } from '../fs/fileConfinement';

/** Above this a text diff is refused: diffing and rendering multi-megabyte buffers freezes the UI. */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024;

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(data: Uint8Array | string): boolean {
  const n = Math.min(data.length, 8000);
  if (typeof data === 'string') {
    for (let i = 0; i < n; i++) if (data.charCodeAt(i) === 0) return true;
    return false;
  }
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** UTF-8 size of a string without allocating a buffer for small ones. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** True when `file` is one of `roots` or inside one (lexically, with the host's case rules; all absolute). */
export function isInsideAny(roots: readonly string[], file: string): boolean {
  const target = path.resolve(file);
  return roots.some((r) => isInsideRoot(path.resolve(r), target));
}

export type DiffProblem =
  | { kind: 'relative'; message: string }
  | { kind: 'outsideWorkspace'; message: string }
  | { kind: 'binary'; message: string }
  | { kind: 'tooLarge'; message: string }
  | { kind: 'deleted'; message: string }
  | { kind: 'conflict'; message: string };

export const problemMessages = {
  relative: (p: string) => `Switchboard can't show a diff for "${p}": the agent sent a relative path.`,
  outsideWorkspace: (p: string) =>
    `"${p}" is outside the workspace folders. Review it carefully: accepting lets the agent write there.`,
  binary: (name: string) => `"${name}" is a binary file; Switchboard can't show a text diff for it.`,
  tooLarge: (name: string, bytes: number) =>
    `"${name}" is ${formatBytes(bytes)}, over the ${formatBytes(MAX_DIFF_BYTES)} limit for diffs. Open the file to review it.`,
  deleted: (name: string) => `"${name}" no longer exists: it was deleted after the agent read it.`,
  conflict: (name: string) =>
    `"${name}" changed after the agent read it. Its change is based on an older version; accepting would overwrite your edits.`,
} as const;

/** Problems with the texts of a proposed diff (agent-supplied content only; no file access). */
export function inspectTexts(name: string, texts: readonly (string | null)[]): DiffProblem | undefined {
  for (const t of texts) {
    if (t === null) continue;
    if (looksBinary(t)) return { kind: 'binary', message: problemMessages.binary(name) };
    const size = byteLength(t);
    if (size > MAX_DIFF_BYTES) return { kind: 'tooLarge', message: problemMessages.tooLarge(name, size) };
  }
  return undefined;
}

/** Problems with where a diff points: relative paths and paths outside every root. */
export function inspectPath(file: string, roots: readonly string[]): DiffProblem | undefined {
  if (!path.isAbsolute(file)) return { kind: 'relative', message: problemMessages.relative(file) };
  if (!isInsideAny(roots, file)) return { kind: 'outsideWorkspace', message: problemMessages.outsideWorkspace(file) };
  return undefined;
}
