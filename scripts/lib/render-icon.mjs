#!/usr/bin/env node
// Renders media/icon.svg to media/icon.png (128x128, transparent corners) with headless Chromium.
// Run after editing the SVG: node scripts/lib/render-icon.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths.mjs';
import { launchChromium } from './browser.mjs';

const svg = readFileSync(join(REPO, 'media', 'icon.svg'), 'utf8');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(REPO, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('wrote media/icon.png');
