// Builds the two bundles: the extension (Node, CommonJS, `vscode` external) and the chat webview (browser).
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webviewAliases } from './webview-ui/bundle-aliases.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Codicons are loaded by the webview from dist/, so the VSIX does not ship node_modules. */
function copyCodicons() {
  mkdirSync('dist/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    cpSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);
  }
}

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? 'linked' : 'inline',
  logLevel: 'info',
  legalComments: 'none',
};

/**
 * zod's `z.locales` namespace pulls every translation of its error messages into the bundle (about 300 KB of
 * the 450 KB zod costs); Switchboard only reads its English messages, registered by zod itself.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: args.importer, namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: dirname(args.path),
    }));
  },
};

const extension = {
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  plugins: [zodEnglishOnly],
  // jsonc-parser's `main` is a UMD build whose inner require('./impl/…') calls esbuild cannot follow
  // (the bundle would fail at activation); its ES module build bundles cleanly.
  alias: { 'jsonc-parser': fileURLToPath(new URL('./node_modules/jsonc-parser/lib/esm/main.js', import.meta.url)) },
};

const webview = {
  ...common,
  entryPoints: ['webview-ui/src/main.tsx'],
  outfile: 'dist/webview.js',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  loader: { '.css': 'css' },
  alias: webviewAliases,
};

copyCodicons();
if (watch) {
  const contexts = await Promise.all([esbuild.context(extension), esbuild.context(webview)]);
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all([esbuild.build(extension), esbuild.build(webview)]);
}
