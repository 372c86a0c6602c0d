// Headless Chromium through playwright-core (Debian's /usr/bin/chromium: Playwright cannot download a
// browser here), and the VS Code workbench readiness check shared by the runners.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { CHROMIUM } from './paths.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** A Chromium executable (the full browser, or TEST_CHROMIUM); throws with the way to install it when it is missing. */
export function requireChromium(path = CHROMIUM) {
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path} (apt-get install -y chromium chromium-headless-shell, or set CHROMIUM_PATH)`);
  return path;
}

export async function launchChromium({ headless = true } = {}) {
  return chromium.launch({ executablePath: requireChromium(), headless, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/** Resolves when the workbench has rendered its activity bar (the extension host may still be starting). */
export async function waitForWorkbench(page, { timeout = 60_000 } = {}) {
  await page.locator('.monaco-workbench .part.activitybar').first().waitFor({ state: 'visible', timeout });
}
