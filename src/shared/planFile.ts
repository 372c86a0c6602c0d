// How a file plan's card (plan_update of type "file") names its file: the base name, and the path relative
// to the session folder that holds it, else the whole path. Display only: the host decides what opens.

export interface PlanFileName {
  /** The file's base name; the URI itself when it is not a file: URI. */
  name: string;
  /** The path relative to the session folder that holds the file, else the absolute path. */
  where?: string;
}

/** The local path of an absolute `file://` URI (display only); undefined for anything else. */
export function filePathOfUri(uri: string): string | undefined {
  const m = /^file:\/\/(?:localhost)?(\/[^?#]*)$/i.exec(uri);
  if (!m) return undefined;
  let p: string;
  try {
    p = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  // file:///c:/x/plan.md is c:/x/plan.md on Windows.
  return /^\/[a-zA-Z]:[\\/]/.test(p) ? p.slice(1) : p;
}

export function planFileName(uri: string, folders: readonly string[] = []): PlanFileName {
  const path = filePathOfUri(uri);
  if (path === undefined) return { name: uri };
  const parts = path.split(/[\\/]/);
  const name = parts[parts.length - 1] || path;
  for (const folder of folders) {
    const root = folder.replace(/[\\/]+$/, '');
    if (root && path.length > root.length && path.startsWith(root) && /[\\/]/.test(path[root.length])) {
      return { name, where: path.slice(root.length + 1) };
    }
  }
  return { name, where: path };
}
