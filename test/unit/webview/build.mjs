// Bundles the webview component tests (TSX, Preact) for mocha in plain Node + jsdom.
// test/unit/webview/*.test.tsx -> out/test/unit/webview/*.test.js (CommonJS; jsdom and mocha stay external).
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webviewAliases } from '../../../webview-ui/bundle-aliases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const entryPoints = readdirSync(here)
  .filter((f) => f.endsWith('.test.tsx'))
  .map((f) => join(here, f));

await esbuild.build({
  entryPoints,
  outdir: join(root, 'out', 'test', 'unit', 'webview'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  loader: { '.css': 'empty' },
  // Browser builds of the webview's dependencies (the same code the webview runs).
  conditions: ['browser', 'import'],
  mainFields: ['browser', 'module', 'main'],
  alias: webviewAliases,
  external: ['jsdom', 'mocha'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
