#!/usr/bin/env node
// npm run package: production build (minified bundles), then `vsce package --no-dependencies` offline into
// switchboard-<version>.vsix. Checks that the VSIX holds only the allow-listed files (.vscodeignore) and
// stays under 2 MB. Prints the VSIX path on its last line.
//
// Usage: node scripts/package.mjs [--out <file.vsix>] [--skip-build]
import { readFileSync, statSync, existsSync, readdirSync, mkdtempSync, cpSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, relative, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { REPO, PKG } from './lib/paths.mjs';
import { run } from './lib/proc.mjs';

const MAX_BYTES = 2 * 1024 * 1024;
/**
 * The whole chat webview (script and styles, minified, Markdown and highlighting included). It began at
 * 300 KB; the Model provider panel, plan cards and title checks added about 7 KB (301.3 KB), the virtualized
 * transcript with find in the session and prompt jumps about 9 KB (317.6 KB), the @ context groups, rate
 * limits and standing instructions about 3 KB, steering, checkpoints, Retry / Copy and Add to Chat chips
 * took it to 340 KB; subagent nests (their cards, permission placement, find and export inside them) and the
 * ready handshake's retry about 1 KB more (340.8 KB), so the budget is 345 KB: growth beyond that still fails
 * the build.
 */
export const WEBVIEW_MAX_BYTES = 345_000;

/** Entries of a zip file (name, uncompressed size) read from its central directory. */
export function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const read = () => {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + compressed);
      return method === 8 ? inflateRawSync(data) : data;
    };
    entries.push({ name, size, read });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/dist\/(?!.*\.map$).+/,
  /^extension\/media\/.+/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/LICENSE(\.txt|\.md)?$/i,
];

async function main() {
  const { values: opts } = parseArgs({
    options: { out: { type: 'string' }, 'skip-build': { type: 'boolean', default: false } },
  });
  const out = resolve(REPO, opts.out ?? `${PKG.name}-${PKG.version}.vsix`);
  // Build and package in a staging dir: the repo's dist/ (a dev build others may be rebuilding right
  // now) is neither used nor overwritten. Sources and node_modules are symlinked for esbuild only.
  const stage = mkdtempSync(join(tmpdir(), 'switchboard-package-'));
  try {
    for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'esbuild.mjs']) {
      if (!existsSync(join(REPO, f))) throw new Error(`${f} is missing; the VSIX needs it`);
      cpSync(join(REPO, f), join(stage, f));
    }
    cpSync(join(REPO, 'media'), join(stage, 'media'), { recursive: true });
    const links = ['src', 'webview-ui', 'node_modules', 'tsconfig.json'].filter((f) => existsSync(join(REPO, f)));
    for (const f of links) symlinkSync(join(REPO, f), join(stage, f));
    if (opts['skip-build']) cpSync(join(REPO, 'dist'), join(stage, 'dist'), { recursive: true });
    else {
      const build = await run(process.execPath, ['esbuild.mjs', '--production'], { cwd: stage });
      if (build.code !== 0) throw new Error(`production build failed (exit ${build.code})`);
    }
    for (const f of [...links, 'esbuild.mjs']) rmSync(join(stage, f), { force: true });
    if (!existsSync(join(stage, 'dist', 'extension.js'))) throw new Error('the build produced no dist/extension.js');
    if (!existsSync(join(stage, PKG.icon))) throw new Error(`${PKG.icon} (package.json icon) is missing`);
    const vsce = join(REPO, 'node_modules', '.bin', 'vsce');
    const { code } = await run(vsce, ['package', '--no-dependencies', '--out', out], {
      cwd: stage,
      // Offline: no update checks, no prompts.
      env: { ...process.env, npm_config_update_notifier: 'false', CI: 'true' },
      timeoutMs: 180_000,
    });
    if (code !== 0) throw new Error(`vsce package failed (exit ${code})`);
    checkVsix(out, join(stage, 'dist'));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  console.log(out);
}

function checkVsix(out, dist) {
  const entries = zipEntries(out);
  const stray = entries.filter((e) => !ALLOWED.some((re) => re.test(e.name))).map((e) => e.name);
  if (stray.length) throw new Error(`the VSIX holds files outside the allow-list (.vscodeignore):\n  ${stray.join('\n  ')}`);
  const names = new Set(entries.map((e) => e.name));
  const left = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && !d.name.endsWith('.map'))
    .map((d) => `extension/dist/${relative(dist, join(d.parentPath ?? d.path, d.name)).split(sep).join('/')}`)
    .filter((n) => !names.has(n));
  if (left.length) throw new Error(`dist/ files missing from the VSIX (extend the allow-list in .vscodeignore):\n  ${left.join('\n  ')}`);
  const manifest = JSON.parse(entries.find((e) => e.name === 'extension/package.json').read().toString('utf8'));
  if (manifest.version !== PKG.version) throw new Error('package.json in the VSIX has another version');
  const webview = entries.filter((e) => /^extension\/dist\/webview\.(js|css)$/.test(e.name)).reduce((n, e) => n + e.size, 0);
  console.log(`[package] webview bundle ${(webview / 1000).toFixed(1)} KB of ${WEBVIEW_MAX_BYTES / 1000} KB`);
  if (webview > WEBVIEW_MAX_BYTES) throw new Error(`the webview bundle is ${webview} bytes: over the ${WEBVIEW_MAX_BYTES}-byte budget`);
  const size = statSync(out).size;
  const unpacked = entries.reduce((n, e) => n + e.size, 0);
  console.log(`[package] ${entries.length} files, ${(unpacked / 1024).toFixed(0)} KiB unpacked, VSIX ${(size / 1024).toFixed(0)} KiB`);
  if (size >= MAX_BYTES) throw new Error(`the VSIX is ${size} bytes: over the 2 MB budget`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await main();
  } catch (err) {
    console.error(`[package] FAILED: ${err?.message ?? err}`);
    process.exit(1);
  }
}
