#!/usr/bin/env node
// Installs the real ACP agents that the "real agents" tests talk to (unit and host tier), pinned, into a
// cache outside the clone: ~/.cache/switchboard-test-host/real-agents (or SWITCHBOARD_REAL_AGENTS_DIR).
// Idempotent: when the marker file says the pinned versions are installed and both entry points exist,
// it only prints where they are. CI runs it before `npm test`.
//
// Usage: node scripts/install-real-agents.mjs [--print-paths] [--force]
//   --print-paths  print only {"claude": "...", "gemini": "...", …} as JSON on stdout
//   --force        reinstall even when the marker matches
// The tests find them in this location (test/fixtures/realAgents/recipe.ts).
/* global process, console */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Pinned versions, one table with the tests (test/fixtures/realAgents/agents.json): bump deliberately. */
const TABLE_FILE = fileURLToPath(new URL('../test/fixtures/realAgents/agents.json', import.meta.url));
export const REAL_AGENTS = Object.fromEntries(Object.entries(JSON.parse(readFileSync(TABLE_FILE, 'utf8'))).filter(([key]) => key !== '//'));

export const REAL_AGENTS_DIR =
  process.env.SWITCHBOARD_REAL_AGENTS_DIR ||
  join(process.env.SWITCHBOARD_TEST_HOST_DIR || join(homedir(), '.cache', 'switchboard-test-host'), 'real-agents');

const MARKER = join(REAL_AGENTS_DIR, 'switchboard-real-agents.json');

/** Absolute paths of the bin entry points (node scripts). */
export function realAgentPaths(dir = REAL_AGENTS_DIR) {
  const entries = Object.entries(REAL_AGENTS).map(([key, a]) => [key, join(dir, 'node_modules', ...a.pkg.split('/'), a.bin)]);
  return Object.fromEntries(entries);
}

/** Versions actually in node_modules (undefined when a package is missing). */
function installedVersions(dir = REAL_AGENTS_DIR) {
  const read = (pkg) => {
    try {
      return JSON.parse(readFileSync(join(dir, 'node_modules', ...pkg.split('/'), 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  return Object.fromEntries(Object.values(REAL_AGENTS).map((a) => [a.pkg, read(a.pkg)]));
}

function wantedVersions() {
  return Object.fromEntries(Object.values(REAL_AGENTS).map((a) => [a.pkg, a.version]));
}

function isInstalled() {
  if (!existsSync(MARKER)) return false;
  try {
    const marker = JSON.parse(readFileSync(MARKER, 'utf8'));
    const wanted = wantedVersions();
    const same = Object.keys(wanted).every((pkg) => marker.versions?.[pkg] === wanted[pkg]);
    return same && Object.values(realAgentPaths()).every((p) => existsSync(p));
  } catch {
    return false;
  }
}

function npmInstall(log) {
  // A package.json in the cache dir pins exact versions; `npm install --prefix` installs exactly those.
  // No agent needs an install script to run: native builds come as platform packages (codex-acp,
  // opencode, copilot, kilo, cline, droid: their postinstall only links the platform binary next to
  // the wrapper, which otherwise finds it in the platform package), optional native modules (node-pty,
  // keytar, sharp) have prebuilt or JS fallbacks, and npm 11 only warns about scripts not in allowScripts.
  // Together about 2 GB (Kilo, Cline and Droid ship ~150-300 MB binaries each).
  writeFileSync(
    join(REAL_AGENTS_DIR, 'package.json'),
    `${JSON.stringify({ name: 'switchboard-real-agents', private: true, dependencies: wantedVersions() }, null, 2)}\n`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', REAL_AGENTS_DIR];
  log(`npm ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(npm, args, {
      cwd: REAL_AGENTS_DIR,
      env: { ...process.env, npm_config_yes: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: -1, output: `${output}\n${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

async function main() {
  const { values: opts } = parseArgs({
    options: { 'print-paths': { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
  });
  // With --print-paths stdout is only the JSON: progress goes to stderr.
  const log = (m) => (opts['print-paths'] ? console.error : console.log)(`[real-agents] ${m}`);
  const started = Date.now();
  if (opts.force || !isInstalled()) {
    const list = Object.values(REAL_AGENTS).map((a) => `${a.pkg}@${a.version}`).join(', ');
    log(`installing ${list} into ${REAL_AGENTS_DIR}…`);
    rmSync(MARKER, { force: true });
    mkdirSync(REAL_AGENTS_DIR, { recursive: true });
    const { code, output } = await npmInstall(log);
    const missing = Object.values(realAgentPaths()).filter((p) => !existsSync(p));
    const got = installedVersions();
    const wrong = Object.entries(wantedVersions()).filter(([pkg, v]) => got[pkg] !== v).map(([pkg, v]) => `${pkg} is ${got[pkg]}, not ${v}`);
    if (code !== 0 || missing.length > 0 || wrong.length > 0) {
      console.error(output.split('\n').slice(-40).join('\n'));
      console.error(
        `[real-agents] ERROR: installing ${list} failed (npm exit ${code}${missing.length ? `; missing ${missing.join(', ')}` : ''}${wrong.length ? `; ${wrong.join('; ')}` : ''}). ` +
          'The real-agent tests need them: check access to the npm registry and run `node scripts/install-real-agents.mjs` again.',
      );
      process.exit(1);
    }
    writeFileSync(MARKER, `${JSON.stringify({ versions: wantedVersions(), installedAt: new Date().toISOString() }, null, 2)}\n`);
    log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    log(`already installed (${REAL_AGENTS_DIR})`);
  }
  const paths = realAgentPaths();
  if (opts['print-paths']) {
    console.log(JSON.stringify(paths));
    return;
  }
  for (const [id, file] of Object.entries(paths)) log(`${id}: ${file}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
