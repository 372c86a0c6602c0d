// Builds the bundles: the extension (Node, CommonJS, `vscode` external), the chat webview (browser) and the
// IDE tools' MCP server and stdio forwarder (Node).
//
// The extension is split so that activation loads little (issue 13): dist/extension.js is the activation
// entry (src/extension.ts) and everything it reaches through `import()` (the services, then the protocol
// engine, remote transports, registry installs) lands in dist/chunks/, loaded on first use. esbuild splits
// only ES modules, and VS Code loads an extension as CommonJS (ESM extensions need VS Code 1.100; we support
// 1.95), so the split ES modules are converted file by file to CommonJS: an `import()` of a chunk becomes a
// `require()` of it, and a module shared by two chunks sits in a third one, so every module still runs once
// (one class for `instanceof`, one copy of each singleton).
//
// Options: --production (minified, linked source maps), --watch, --outdir <dir> (default dist),
// --metafile <file> (esbuild's metafile of the split build: which sources each output file holds).
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { webviewAliases } from './webview-ui/bundle-aliases.mjs';

const { values: args } = parseArgs({
  options: {
    production: { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
    outdir: { type: 'string', default: 'dist' },
    metafile: { type: 'string' },
  },
});
const { production, watch } = args;
/** Our sources, as esbuild sees them (the packaging script links src/ into a staging folder). */
const srcDir = `${realpathSync('src')}${sep}`;
const outdir = resolve(args.outdir);

/** Codicons are loaded by the webview from dist/, so the VSIX does not ship node_modules. */
function copyCodicons() {
  mkdirSync(join(outdir, 'codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    cpSync(`node_modules/@vscode/codicons/dist/${f}`, join(outdir, 'codicons', f));
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
 * zod's `locales` namespace pulls every translation of its error messages into the bundle (about 300 KB);
 * Switchboard only reads its English messages (src/shared/zod.ts registers them from that namespace).
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

/**
 * Our sources have no side effects at load (no registrations, no patching): marking them so lets esbuild
 * leave out the modules a barrel (`../../acp`) re-exports but a chunk does not use, instead of pulling the
 * whole protocol engine into every chunk that needs one error class. The one registration is zod's English
 * messages, in src/shared/zod.ts and src/agents/zod.ts: every name they export is zod/mini's, so marked
 * like the rest they would be left out, and every zod issue would read "Invalid input".
 */
const zodWithEnglish = [`${srcDir}shared${sep}zod.ts`, `${srcDir}agents${sep}zod.ts`];
const sourcesWithoutSideEffects = {
  name: 'sources-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === 'resolving' || !args.importer.startsWith(srcDir)) return undefined;
      const result = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
      return result.errors.length || !result.path.startsWith(srcDir) || zodWithEnglish.includes(result.path) ? result : { ...result, sideEffects: false };
    });
  },
};

/**
 * A barrel (`src/acp/index.ts`: nothing but `export … from` lines) is read as `export * from` lines. esbuild
 * puts in a chunk every module that a module of the chunk imports, used or not, and a barrel whose named
 * re-export is used counts as used: with `export { AcpClientConnection } from './connection/clientConnection'`
 * any use of the barrel would bring the protocol engine into the chunks that only need an error class from
 * it. Through `export *` esbuild binds the names without that. (Types are checked against the real barrel;
 * a name two modules export would fail this build as ambiguous, and a renaming re-export is kept as it is.)
 */
const barrelsAsExportStar = {
  name: 'barrels-as-export-star',
  setup(build) {
    build.onLoad({ filter: /[\\/]index\.ts$/ }, async (args) => {
      if (!args.path.startsWith(srcDir)) return undefined;
      const text = await readFile(args.path, 'utf8');
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const statements = code.split(';').map((st) => st.trim()).filter(Boolean);
      const reExport = /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+'([^']+)'$/;
      if (!statements.every((st) => reExport.test(st))) return undefined;
      const lines = statements.flatMap((st) => {
        const [, typeOnly, names, from] = reExport.exec(st);
        if (typeOnly) return [];
        return /\bas\b/.test(names) && names !== '*' ? [`${st};`] : [`export * from '${from}';`];
      });
      return { contents: [...new Set(lines)].join('\n'), loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

/** The split ES modules (written to a temporary folder) -> CommonJS files in outdir, with composed source maps. */
function commonJsOutput(esmDir) {
  return {
    name: 'split-esm-to-commonjs',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
        // Chunk names carry a hash: drop the previous build's (not in watch mode, where a running extension
        // host may still load them).
        if (!watch) rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
        await esbuild.build({
          entryPoints: files,
          outbase: esmDir,
          outdir,
          bundle: false,
          format: 'cjs',
          platform: 'node',
          target: 'node20',
          minify: production,
          sourcemap: common.sourcemap,
          legalComments: 'none',
          logLevel: 'info',
        });
        if (args.metafile) {
          // Output paths relative to outdir (the split build wrote them to esmDir).
          const rel = (f) => relative(esmDir, f);
          const outputs = Object.fromEntries(
            Object.entries(result.metafile.outputs).map(([f, v]) => [rel(f), { ...v, imports: v.imports.map((i) => (i.external ? i : { ...i, path: rel(i.path) })) }]),
          );
          writeFileSync(args.metafile, JSON.stringify({ ...result.metafile, outputs }));
        }
      });
    },
  };
}

const esmDir = mkdtempSync(join(tmpdir(), 'switchboard-esbuild-'));
process.on('exit', () => rmSync(esmDir, { recursive: true, force: true }));

const extension = {
  ...common,
  entryPoints: { extension: 'src/extension.ts' },
  outdir: esmDir,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  // Inline in the intermediate files, so that the CommonJS pass composes them into the final maps.
  sourcemap: 'inline',
  metafile: true,
  logLevel: 'warning',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  plugins: [zodEnglishOnly, sourcesWithoutSideEffects, barrelsAsExportStar, commonJsOutput(esmDir)],
  // jsonc-parser's `main` is a UMD build whose inner require('./impl/…') calls esbuild cannot follow
  // (the bundle would fail at activation); its ES module build bundles cleanly.
  alias: { 'jsonc-parser': fileURLToPath(new URL('./node_modules/jsonc-parser/lib/esm/main.js', import.meta.url)) },
};

const webview = {
  ...common,
  entryPoints: ['webview-ui/src/main.tsx'],
  outfile: join(outdir, 'webview.js'),
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  loader: { '.css': 'css' },
  alias: webviewAliases,
};

/**
 * The IDE tools' MCP server and its stdio forwarder (src/host/ideTools), bundles of their own: the MCP SDK
 * brings zod's classic API, which shares zod's core with zod/mini; split with the extension, it would grow the
 * chat's startup by the parts of the core only the SDK uses. The extension imports the server by its path when
 * the first session opens; agents run the forwarder.
 */
const ideTools = {
  ...common,
  entryPoints: { ideToolsServer: 'src/host/ideTools/ideToolsServer.ts', ideToolsStdio: 'src/host/ideTools/stdioForwarder.ts' },
  outdir,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [zodEnglishOnly],
};

copyCodicons();
const builds = [extension, webview, ideTools];
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
