import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { InstalledAgent } from './installedAgents';

/*
 * The folder registry agents are installed in (`<root>/<id>/<version>/`, with the scratch folders
 * `.downloads` and `.staging`), and removing from it: never anything outside it. Apart from the installer
 * (installer.ts, with the download and archive code) because RegistryService tidies the folder at every
 * start, and loads the installer only when the user installs, updates or uninstalls an agent.
 */

/** Where an install downloads and unpacks before the new version moves into place. */
export function scratchFolder(root: string, name: '.downloads' | '.staging'): string {
  return path.join(root, name);
}

export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Deletes `folder` when it lies inside `root` (and is not root itself); a folder that cannot go is left. */
export async function removeFolder(root: string, folder: string): Promise<void> {
  if (!isInside(root, folder) || path.resolve(folder) === path.resolve(root)) return;
  // Windows keeps a running executable locked: removeLeftovers retries at the next start.
  await fs.rm(folder, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined);
}

/**
 * Removes what an interrupted install left behind (a window closed mid-download) and folders no record
 * names (an update that could not delete the old version while it ran). Only leftovers older than
 * `minAgeMs`: another window may be installing right now.
 */
export async function removeLeftovers(root: string, records: readonly InstalledAgent[], minAgeMs = 60 * 60 * 1000): Promise<void> {
  const now = Date.now();
  const stale = async (folder: string) => {
    const stat = await fs.stat(folder).catch(() => undefined);
    return stat !== undefined && now - stat.mtimeMs >= minAgeMs;
  };
  const children = async (folder: string) => (await fs.readdir(folder).catch(() => [] as string[])).map((name) => path.join(folder, name));
  for (const leftover of [...(await children(scratchFolder(root, '.downloads'))), ...(await children(scratchFolder(root, '.staging')))]) {
    if (await stale(leftover)) await removeFolder(root, leftover);
  }
  for (const folder of await children(root)) {
    const name = path.basename(folder);
    if (name.startsWith('.') || !(await fs.stat(folder).catch(() => undefined))?.isDirectory()) continue;
    const record = records.find((r) => r.id === name);
    if (!record) {
      if (await stale(folder)) await removeFolder(root, folder);
      continue;
    }
    for (const version of await children(folder)) {
      if (version !== record.directory && (await stale(version))) await removeFolder(root, version);
    }
  }
}
