// The `switchboard-diff:` URI format. URIs carry an opaque id and the file's base name only: never
// content, full paths or query strings, so nothing sensitive lands in editor history, logs or telemetry.
// The base name is there so the tab shows it and the language is detected from the extension.
import { randomBytes } from 'crypto';

export const DIFF_SCHEME = 'switchboard-diff';

/** Ids are short and opaque: letters, digits, '-' (checked on parse). */
const ID_RE = /^[A-Za-z0-9-]{1,64}$/;

let counter = 0;

/** A fresh id; random so separately loaded copies of this module (bundle and tests) never collide. */
export function newDiffId(): string {
  counter += 1;
  return `${randomBytes(6).toString('hex')}-${counter.toString(36)}`;
}

/** Keep only characters that are safe and readable in a URI path segment. */
export function safeBaseName(pathOrName: string): string {
  const base = pathOrName.split(/[\\/]/).filter((s) => s.length > 0).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._\- ]/g, '_').slice(0, 120);
  return cleaned.length > 0 && cleaned !== '.' && cleaned !== '..' ? cleaned : 'file';
}

/** The path component of a diff URI: `/<id>/<basename>`. */
export function diffUriPath(id: string, fileName: string): string {
  if (!ID_RE.test(id)) throw new Error(`invalid diff id: ${id}`);
  return `/${id}/${safeBaseName(fileName)}`;
}

/** The id inside a diff URI's path, or undefined when the path is not one of ours. */
export function parseDiffUriPath(path: string): string | undefined {
  const m = /^\/([^/]+)\/[^/]+$/.exec(path);
  if (!m) return undefined;
  return ID_RE.test(m[1]) ? m[1] : undefined;
}
