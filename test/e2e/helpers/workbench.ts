// Helpers for end-to-end tests: the real VS Code workbench (code-server, with the packaged VSIX installed)
// in headless Chromium through playwright-core. scripts/run-e2e-tests.mjs starts code-server and passes
// its URL and directories in the environment; tests only drive the browser.
//
//   const wb = await openWorkbench();            // an emptied window (context + page), workbench rendered
//   await openSwitchboardView(wb.page);          // click the activity-bar icon
//   const chat = chatFrame(wb.page);             // FrameLocator inside the chat webview
//   await chat.getByRole('textbox', { name: 'Message' }).fill('hi');
//   await screenshot(wb.page, 'my-test');        // test-results/e2e/my-test.png
//   await closeWorkbench(wb);
import * as fs from 'fs';
import * as path from 'path';
import { chromium, type Browser, type Dialog, type FrameLocator, type Locator, type Page } from 'playwright-core';

export interface E2EEnv {
  /** Workbench URL with the sample workspace open. */
  url: string;
  /** code-server's --user-data-dir (user settings live in User/settings.json). */
  userDataDir: string;
  /** The temp copy of test/fixtures/workspace that is open. */
  workspace: string;
  /** Where screenshots and other artifacts go (test-results/e2e). */
  artifacts: string;
  chromium: string;
  /** Chromium flags, one list for every runner (scripts/lib/browser.mjs passes them). */
  chromiumArgs: string[];
  /** Settings the extension declares machine-scoped (scripts/lib/workspace.mjs reads them from package.json). */
  machineScoped: string[];
}

export function e2eEnv(): E2EEnv {
  const url = process.env.SWITCHBOARD_E2E_URL;
  if (!url) throw new Error('SWITCHBOARD_E2E_URL is not set: run the e2e tests with npm run test:e2e');
  return {
    url,
    userDataDir: process.env.SWITCHBOARD_E2E_USER_DATA ?? '',
    workspace: process.env.SWITCHBOARD_E2E_WORKSPACE ?? '',
    artifacts: process.env.SWITCHBOARD_E2E_ARTIFACTS ?? path.resolve('test-results', 'e2e'),
    chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
    chromiumArgs: JSON.parse(process.env.SWITCHBOARD_E2E_CHROMIUM_ARGS ?? '["--no-sandbox"]') as string[],
    machineScoped: JSON.parse(process.env.SWITCHBOARD_E2E_MACHINE_SCOPED ?? '[]') as string[],
  };
}

export interface Workbench {
  page: Page;
  /** Browser console lines and page errors, for diagnosing a failure. */
  console: string[];
}

/**
 * One Chromium for the whole run, launched by the first openWorkbench (a launch and a close cost seconds
 * on a loaded machine, per test file).
 */
let sharedBrowser: Promise<Browser> | undefined;

function browser(env: E2EEnv): Promise<Browser> {
  const launched = sharedBrowser;
  if (launched) {
    return launched.then((b) => {
      if (b.isConnected()) return b;
      if (sharedBrowser === launched) sharedBrowser = undefined;
      return browser(env);
    });
  }
  const launching = chromium.launch({ executablePath: env.chromium, headless: true, args: env.chromiumArgs, timeout: 60_000 });
  sharedBrowser = launching;
  launching.catch(() => {
    if (sharedBrowser === launching) sharedBrowser = undefined;
  });
  return launching;
}

/**
 * The window a closed workbench leaves for the next one: its browser context and page, on a page of the
 * workbench's origin that is not the workbench. A new context starts with empty caches, so every file
 * fetched and compiled the workbench's scripts again (about 13 CPU-s a window on 2 cores); the same page
 * keeps the HTTP cache and V8's compiled code (about 9). What one workbench stores, the next does not see:
 * openWorkbench clears the origin's storage (IndexedDB with the workbench state and the extensions'
 * Mementos, local and session storage, service workers, caches) and the granted permissions first, as a
 * new context would start without them.
 */
let idleWindow: Page | undefined;

/** Browser console lines of the workbench open in a page (the page's listeners, added once, write here). */
const consoleOf = new WeakMap<Page, string[]>();

// A root-level hook (this module loads while mocha loads the test files): the browser ends with the run.
after(async () => {
  const launched = sharedBrowser;
  sharedBrowser = undefined;
  idleWindow = undefined;
  await (await launched?.catch(() => undefined))?.close().catch(() => undefined);
});

/** A page of the workbench's origin that is not the workbench (code-server's health check). */
const offWorkbench = (env: E2EEnv): string => `${new URL(env.url).origin}/healthz`;

/**
 * Moves `page` off the workbench (its extension host ends, as when a window closes) and closes the
 * context's other pages. A workbench with unsaved files asks before it unloads: the answer is leave.
 */
async function leaveWorkbench(page: Page, env: E2EEnv): Promise<void> {
  for (const other of page.context().pages()) if (other !== page) await other.close();
  const leave = (dialog: Dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  page.on('dialog', leave);
  try {
    await page.goto(offWorkbench(env), { timeout: 60_000 });
  } finally {
    page.off('dialog', leave);
  }
}

/** The idle window emptied for a new workbench, or undefined when there is none or it cannot be reused. */
async function reuseWindow(env: E2EEnv, width: number, height: number): Promise<Page | undefined> {
  const page = idleWindow;
  idleWindow = undefined;
  if (!page || page.isClosed()) return undefined;
  try {
    // closeWorkbench left it off the workbench: nothing writes to the storage cleared here.
    const origin = new URL(env.url).origin;
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    } finally {
      await cdp.detach();
    }
    await page.evaluate(() => sessionStorage.clear());
    await page.context().clearPermissions();
    await page.setViewportSize({ width, height });
    return page;
  } catch (err) {
    console.log(`    (a new window: the last one could not be emptied: ${err instanceof Error ? err.message : String(err)})`);
    await page.context().close().catch(() => {});
    return undefined;
  }
}

/** A window of its own: a new browser context (not browser.newPage()), so a test can open a second page that shares its storage. */
async function newWindow(env: E2EEnv, width: number, height: number): Promise<Page> {
  const context = await (await browser(env)).newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const log = (line: string) => consoleOf.get(page)?.push(line);
  page.on('console', (m) => log(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => log(`[pageerror] ${e.message}`));
  return page;
}

/** Opens the workbench in an empty window and waits until it has rendered and the extensions started. */
export async function openWorkbench({ width = 1280, height = 800 } = {}): Promise<Workbench> {
  const env = e2eEnv();
  const page = (await reuseWindow(env, width, height)) ?? (await newWindow(env, width, height));
  const lines: string[] = [];
  consoleOf.set(page, lines);
  try {
    await page.goto(env.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
    await activityBarItem(page, 'Switchboard').waitFor({ state: 'visible', timeout: 60_000 });
    return { page, console: lines };
  } catch (err) {
    fs.mkdirSync(env.artifacts, { recursive: true });
    for (const open of page.context().pages()) {
      await open.screenshot({ path: path.join(env.artifacts, 'open-workbench-failed.png') }).catch(() => {});
    }
    await page.context().close().catch(() => {});
    throw err;
  }
}

/**
 * Closes the workbench's windows: the page leaves the workbench and any second page a test opened closes.
 * The emptied window is kept for the next workbench; one that cannot leave is closed.
 */
export async function closeWorkbench(wb: Workbench | undefined): Promise<void> {
  if (!wb) return;
  const env = e2eEnv();
  fs.mkdirSync(env.artifacts, { recursive: true });
  consoleOf.delete(wb.page);
  try {
    await leaveWorkbench(wb.page, env);
  } catch (err) {
    console.log(`    (the window could not leave the workbench and is closed: ${err instanceof Error ? err.message : String(err)})`);
    await wb.page.context().close().catch(() => {});
    return;
  }
  if (idleWindow && idleWindow !== wb.page) await idleWindow.context().close().catch(() => {});
  idleWindow = wb.page;
}

/** The activity-bar entry whose accessible name starts with `name` (e.g. "Switchboard", "Explorer"). */
export function activityBarItem(page: Page, name: string): Locator {
  return page
    .locator('.part.activitybar .action-item[role="tab"]')
    .filter({ has: page.locator(`a.action-label[aria-label^="${name}"]`) })
    .first();
}

/** The side bar as a locator. */
export function sideBar(page: Page): Locator {
  return page.locator('.part.sidebar');
}

/** Opens the Switchboard view container by clicking its activity-bar icon; resolves when it shows. */
export async function openSwitchboardView(page: Page): Promise<Locator> {
  const item = activityBarItem(page, 'Switchboard');
  if ((await item.getAttribute('aria-selected')) !== 'true') await item.click();
  const bar = sideBar(page);
  try {
    await bar.waitFor({ state: 'visible', timeout: 5_000 });
  } catch {
    // After a reload the workbench can mark the item selected while restoring the side bar empty and
    // hidden (the view container was restored before the extension registered it); on a loaded machine
    // the side bar can also just be slow to show. A second click would hide a side bar that is about to
    // show, so open the container with its own command, which only ever shows it.
    await runCommand(page, 'View: Show Switchboard');
    await bar.waitFor({ state: 'visible' });
  }
  await bar.locator('.composite.title .title-label', { hasText: /switchboard/i }).waitFor({ state: 'visible' });
  return bar;
}

/**
 * The chat webview's document. A webview is an iframe (the host, src carries extensionId) holding
 * another iframe (#active-frame) with the extension's HTML; Playwright reaches it through frame locators.
 */
export function chatFrame(page: Page): FrameLocator {
  return page
    .frameLocator('iframe.webview[src*="extensionId=switchboard-dev.switchboard"]')
    .first()
    .frameLocator('#active-frame');
}

/** Runs a command from the command palette by its title as shown there (e.g. "Switchboard: New Session"). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function runCommand(page: Page, title: string): Promise<void> {
  // The palette computes its list when it opens; a command enabled a moment later (context keys) shows up
  // only in a palette opened again, so a miss closes it and tries again.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    try {
      // Click the row named exactly `title`: Enter would run whichever row is highlighted, which can be a
      // longer title that merely contains this one ("File: Save" vs "File: Compare Active File with Saved").
      const row = page
        .locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
        .first();
      await row.waitFor({ timeout: 10_000 });
      await row.click();
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt >= 3) throw error;
    }
  }
}

export const THEMES = {
  light: { name: 'Default Light Modern', cls: 'vs' },
  dark: { name: 'Default Dark Modern', cls: 'vs-dark' },
  'high-contrast': { name: 'Default High Contrast', cls: 'hc-black' },
} as const;
export type ThemeKind = keyof typeof THEMES;

/**
 * Switches the color theme as a user does, with "Preferences: Color Theme" (it applies at once and writes
 * `workbench.colorTheme` to the user settings), and waits until the workbench shows it. No page reload (a
 * reload starts a new extension host, and the open sessions live there), and no settings file written
 * behind the workbench's back (code-server does not always notice one).
 */
export async function setColorTheme(page: Page, kind: ThemeKind): Promise<void> {
  const theme = THEMES[kind];
  const applied = () => page.evaluate((c) => !!document.querySelector('.monaco-workbench')?.classList.contains(c), theme.cls);
  if (await applied()) return;
  await page.keyboard.press('Escape');
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  // The palette's input is reused: wait until it is the theme picker's (its placeholder names the theme).
  await page
    .waitForFunction(() => /theme/i.test(document.querySelector('.quick-input-widget input')?.getAttribute('placeholder') ?? ''), undefined, { timeout: 10_000 })
    .catch(() => undefined);
  await input.fill(theme.name);
  // Click the theme's own row (Enter could hit "Browse Additional Color Themes…", which needs the network).
  // VS Code 1.100 labels "Default Light Modern" as "Light Modern" and shows the setting value as the description.
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: theme.name }).filter({ hasNotText: /Browse Additional/ }).first();
  await row.waitFor();
  await row.click();
  await page.waitForFunction((c) => !!document.querySelector('.monaco-workbench')?.classList.contains(c), theme.cls, { timeout: 30_000 });
  await activityBarItem(page, 'Switchboard').waitFor({ state: 'visible' });
}

/** Saves a full-page PNG as test-results/e2e/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = e2eEnv().artifacts;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Writes the browser console of a workbench to test-results/e2e/<name>.console.log. */
export function saveConsole(wb: Workbench, name: string): void {
  const dir = e2eEnv().artifacts;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.console.log`), wb.console.join('\n') + '\n');
}

/**
 * After a failed test: a screenshot, and what the workbench was showing (a modal dialog, notifications)
 * printed to the test output, which is all a CI run keeps.
 */
export async function reportFailure(page: Page, name: string): Promise<void> {
  await screenshot(page, `failed-${name.replace(/\W+/g, '-')}`).catch(() => {});
  const texts = async (selector: string): Promise<string[]> =>
    (await page.locator(selector).allInnerTexts().catch(() => [] as string[])).map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const dialogs = await texts('.monaco-dialog-box');
  const notifications = await texts('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item');
  console.log(`    workbench at the failure: dialogs ${JSON.stringify(dialogs)}; notifications ${JSON.stringify(notifications)}`);
}

/**
 * "View: Close All Editors". A file left unsaved (by a test that failed half-way) makes VS Code ask
 * whether to save it; the answer is Don't Save, so one failure does not block every later test.
 */
export async function closeAllEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box').getByRole('button', { name: "Don't Save" });
  const editors = page.locator('.part.editor .tabs-container .tab');
  // Every editor closes; VS Code asks about unsaved ones first (their editors stay open while it asks).
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (await dontSave.isVisible()) {
      console.log('    (an unsaved editor was closed without saving)');
      await dontSave.click();
      continue;
    }
    if ((await editors.count()) === 0) return;
    if (Date.now() > deadline) return console.log(`    (editors still open after Close All Editors: ${(await editors.allInnerTexts()).join(', ')})`);
    await page.waitForTimeout(100);
  }
}
