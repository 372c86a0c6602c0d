// What the e2e tests of handing context to the chat share: a Git repository with a working-tree change, the
// settings of a workbench with the fake agent recording its prompts and Git on, the composer's chips cleared
// between tests, and picking an item of a context menu.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Page } from 'playwright-core';
import { FAKE_AGENT, REPO, until } from './chat';
import { openSwitchboardView } from './workbench';
import { updateSettings } from './stored';

const FAKE = path.join(REPO, 'test', 'fixtures', 'agents', 'fake-agent.mjs');

/** A repository with `file` committed as `committed`, then changed in the working tree to `changed`. */
export function repositoryWithChange(repo: string, file: string, committed: string, changed: string): void {
  fs.mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd: repo });
  git('init', '-q');
  fs.writeFileSync(path.join(repo, file), committed);
  git('add', file);
  git('commit', '-qm', 'first');
  fs.writeFileSync(path.join(repo, file), changed);
}

/**
 * The settings (for useChatWorkbench, with the fake agent as its agent and the clipboard allowed: a terminal's
 * selection is read through it) of a workbench whose fake agent records to `record`, with Git on.
 */
export function contextSettings(record: string, settings: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'switchboard.agents': { [FAKE_AGENT]: { command: process.execPath, args: [FAKE, `--record=${record}`] } },
    'terminal.integrated.rightClickBehavior': 'default',
    // The e2e workbench runs with Git off (scripts/lib/workspace.mjs); these tests turn it on for their repository.
    'git.enabled': true,
    'git.autoRepositoryDetection': true,
    ...settings,
  };
}

/** Git off again, as the other e2e files expect. */
export function closeContextSettings(): void {
  updateSettings({ 'git.enabled': false, 'git.autoRepositoryDetection': false });
}

/** Removes the chips a failed test left behind, so each test sees only its own. */
export async function clearChips(page: Page, chat: FrameLocator): Promise<void> {
  await openSwitchboardView(page);
  const remove = chat.getByRole('list', { name: 'Attachments' }).getByRole('button', { name: /^Remove / });
  while ((await remove.count()) > 0) await remove.first().click();
}

/** Picks `label` in the open context menu. */
export async function contextMenuItem(page: Page, label: string): Promise<void> {
  const item = page.locator('.monaco-menu .action-item:not(.disabled) .action-label', { hasText: new RegExp(`^${label}$`) }).first();
  await item.waitFor({ state: 'visible', timeout: 20_000 });
  // A click on a menu item sometimes leaves the menu open here: the item is hovered (focused), then Enter.
  await item.hover();
  await until(async () => (await item.locator('xpath=ancestor::*[contains(@class,"action-item")][1]').getAttribute('class'))?.includes('focused'), `${label} focused in the menu`, 10_000);
  await page.keyboard.press('Enter');
  await item.waitFor({ state: 'hidden', timeout: 10_000 });
}
