// What the workbench keeps between windows, for e2e tests: the settings files code-server reads (user and
// Machine) and the extension's workspace memento in the page's IndexedDB.
import * as fs from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { e2eEnv } from './workbench';

/** The user and Machine settings files as they are now (for failure messages). */
export function settingsText(): string {
  return [userSettingsFile(), machineSettingsFile()]
    .map((file) => {
      try {
        return `${path.basename(path.dirname(file))}: ${fs.readFileSync(file, 'utf8').replace(/\s+/g, ' ').slice(0, 1500)}`;
      } catch (err) {
        return `${file} unreadable: ${err instanceof Error ? err.message : String(err)}`;
      }
    })
    .join('; ');
}

const userSettingsFile = () => path.join(e2eEnv().userDataDir, 'User', 'settings.json');
/** code-server's "Remote" settings, where its (remote) window reads machine-scoped settings. */
const machineSettingsFile = () => path.join(e2eEnv().userDataDir, 'Machine', 'settings.json');

/**
 * Merges `patch` into the settings, as a user of code-server sets them: machine-scoped ones in the Remote
 * (Machine) settings, the rest in the user settings. VS Code picks the change up live.
 */
export function updateSettings(patch: Record<string, unknown>): void {
  const machineScoped = new Set(e2eEnv().machineScoped);
  for (const file of [userSettingsFile(), machineSettingsFile()]) {
    const machine = file === machineSettingsFile();
    const mine = Object.fromEntries(Object.entries(patch).filter(([key]) => machineScoped.has(key) === machine));
    if (Object.keys(mine).length === 0) continue;
    let current: Record<string, unknown> = {};
    try {
      current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      /* no settings yet */
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...current, ...mine }, null, 2) + '\n');
  }
}

/**
 * The extension's workspace memento as the browser holds it (undefined until first stored): code-server
 * keeps workspace state in the page's IndexedDB (database vscode-web-state-db-<workspace>, table ItemTable,
 * one JSON value per extension), written a moment after the extension's update. A test that reloads the
 * page waits here for what it changed, or the reload would bring the old state back.
 */
export async function persistedWorkspaceState(page: Page): Promise<Record<string, unknown> | undefined> {
  const value = await page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('vscode-web-state-db-') && !n.endsWith('-global'));
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      try {
        if (!db.objectStoreNames.contains('ItemTable')) continue;
        const item = await new Promise<unknown>((resolve, reject) => {
          const r = db.transaction('ItemTable', 'readonly').objectStore('ItemTable').get('switchboard-dev.switchboard');
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        if (typeof item === 'string') return item;
      } finally {
        db.close();
      }
    }
    return undefined;
  });
  return value === undefined ? undefined : (JSON.parse(value) as Record<string, unknown>);
}
