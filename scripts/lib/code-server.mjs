// The test host: code-server (real VS Code, served to a browser), installed once per machine into a cache
// outside the clone, started on a free loopback port with throwaway user-data and extensions dirs.
// Facts and flags: ../../../shared/TESTING.md (in the repo: see the README's testing section).
import { existsSync, mkdirSync, writeFileSync, copyFileSync, rmSync, readFileSync, readdirSync, symlinkSync, createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';
import { CODE_SERVER_VERSION, TEST_HOST_DIR, TMP } from './paths.mjs';
import { run, startTracked, cleanEnv, sleep } from './proc.mjs';

const PKG_DIR = join(TEST_HOST_DIR, 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = join(PKG_DIR, 'out', 'node', 'entry.js');
const MARKER = join(TEST_HOST_DIR, `.switchboard-ok-${CODE_SERVER_VERSION}`);
const BUILTINS = join(PKG_DIR, 'lib', 'vscode', 'extensions');

/**
 * Built-in extensions that activate in every test window although no test and no Switchboard feature uses
 * them; each costs extension-host CPU at every window start (the e2e tier opens one window per describe).
 * A user's VS Code has them all: they only ever add their own commands and views, nothing Switchboard calls.
 *   emmet                  activates on the first editor of any language; abbreviations in HTML/CSS
 *   npm                    activates on the workspace's package.json: scans it for scripts, an explorer view
 *   github                 activates at startup for every window (with git); publish/share commands
 *   debug-auto-launch      activates at startup; Node auto-attach in terminals (off by default)
 *   merge-conflict         activates at startup; scans every open document for conflict markers
 *   extension-editing      activates on the first JSON model; lints VS Code extension manifests
 *   ms-vscode.js-debug (+ js-debug-companion, vscode-js-profile-table, debug-server-ready)
 *                          JavaScript debugging; no test debugs. Its manifest (~280 KB with its strings) is half
 *                          of the extension list the server sends the workbench, ~18 times a minute in an e2e
 *                          describe, each copy parsed by the page and relayed to Playwright
 *   css-language-features, html-language-features
 *                          no test opens a CSS or HTML file; their 122 settings are in every configuration
 *                          change the server sends both extension hosts (~166 KB each, one per settings write)
 * (The browser's web-worker extension host logs "Activating extension 'vscode.emmet' failed: Not Found" and
 * the same for npm, merge-conflict and extension-editing in the browser console with or without this: it
 * lists their web builds, which code-server does not serve.)
 * Kept: git (Source Control and `@` Changes tests), json-language-features (Problems tests, IDE tools),
 * configuration-editing (the schemas of settings files the tests write), typescript-language-features in
 * the host tier (IDE tools: definitions, symbols, hovers), the grammars and themes.
 */
export const UNUSED_BUILTINS = [
  'vscode.emmet',
  'vscode.npm',
  'vscode.github',
  'vscode.debug-auto-launch',
  'vscode.merge-conflict',
  'vscode.extension-editing',
  'ms-vscode.js-debug',
  'ms-vscode.js-debug-companion',
  'ms-vscode.vscode-js-profile-table',
  'vscode.debug-server-ready',
  'vscode.css-language-features',
  'vscode.html-language-features',
];

/**
 * The e2e tier also goes without TypeScript/JavaScript language features: every window that opens a .js
 * file (or any jsonc model) started two tsserver processes, and no e2e test asks for a definition, symbol
 * or TypeScript diagnostic (the host tier tests those through the IDE tools, with the extension kept).
 */
export const E2E_UNUSED_BUILTINS = [...UNUSED_BUILTINS, 'vscode.typescript-language-features'];

/**
 * code-server has no --disable-extension (its CLI rejects it), but takes --builtin-extensions-dir: `dir`
 * gets a symlink to every built-in extension (and their shared node_modules) except those in `omit`.
 * Throws on an id that is not a built-in, so a rename in a new VS Code is noticed.
 */
function builtinsWithout(omit, dir) {
  const left = new Set(omit);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(BUILTINS)) {
    let id = null;
    try {
      const manifest = JSON.parse(readFileSync(join(BUILTINS, name, 'package.json'), 'utf8'));
      id = `${manifest.publisher}.${manifest.name}`;
    } catch {
      /* not an extension (node_modules, package.json, ...): linked as it is */
    }
    if (id && left.delete(id)) continue;
    symlinkSync(join(BUILTINS, name), join(dir, name));
  }
  if (left.size) throw new Error(`not built-in extensions of code-server ${CODE_SERVER_VERSION}: ${[...left].join(', ')}`);
  return dir;
}

/** True when a complete code-server of the pinned version is in the cache. */
export function codeServerInstalled() {
  if (existsSync(MARKER) && existsSync(CODE_SERVER_ENTRY)) return true;
  try {
    const version = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8')).version;
    const vscode = join(PKG_DIR, 'lib', 'vscode', 'node_modules');
    // The postinstall (which builds VS Code's own node_modules) must have completed too.
    const complete =
      version === CODE_SERVER_VERSION &&
      existsSync(CODE_SERVER_ENTRY) &&
      existsSync(join(vscode, 'node-pty', 'build', 'Release', 'pty.node')) &&
      existsSync(join(vscode, '@vscode', 'ripgrep', 'bin', 'rg'));
    if (complete) writeFileSync(MARKER, `${new Date().toISOString()}\n`);
    return complete;
  } catch {
    return false;
  }
}

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A directory lock (atomic mkdir) so that two runs never install into the cache at once. */
async function withLock(fn) {
  const lock = `${TEST_HOST_DIR}.lock`;
  const deadline = Date.now() + 20 * 60_000;
  // A fresh machine has no ~/.cache yet: the lock's own mkdir must not be the first one there.
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        /* being created */
      }
      if (owner && !pidAlive(owner)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another install of the test host holds ${lock} for too long`);
      await sleep(2000);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache already holds the archive;
 * without internet we put the system's rg (Debian package ripgrep) there.
 */
function seedRipgrepCache(log) {
  const rg = which('rg');
  if (!rg) throw new Error('ripgrep is required to install the test host: apt-get install -y ripgrep');
  const target = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[process.arch];
  if (!target) throw new Error(`no ripgrep cache recipe for ${process.arch}`);
  const dir = join(process.env.TMPDIR || TMP, 'vscode-ripgrep-cache-1.15.11');
  const archive = join(dir, `ripgrep-v13.0.0-10-${target}.tar.gz`);
  if (existsSync(archive)) return;
  mkdirSync(join(dir, 'x'), { recursive: true });
  copyFileSync(rg, join(dir, 'x', 'rg'));
  execFileSync('tar', ['czf', archive, '-C', join(dir, 'x'), 'rg']);
  log(`seeded ${archive} with ${rg}`);
}

/** Installs code-server into the cache when it is missing. Returns the path of its entry script. */
export async function ensureCodeServer({ log = (m) => console.log(`[test-host] ${m}`) } = {}) {
  if (codeServerInstalled()) return CODE_SERVER_ENTRY;
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20) throw new Error(`code-server ${CODE_SERVER_VERSION} needs Node 20 (this is ${process.version})`);
  return withLock(async () => {
    if (codeServerInstalled()) return CODE_SERVER_ENTRY;
    const started = Date.now();
    log(`installing code-server ${CODE_SERVER_VERSION} into ${TEST_HOST_DIR} (once; about 2 minutes)…`);
    mkdirSync(TEST_HOST_DIR, { recursive: true });
    seedRipgrepCache(log);
    writeFileSync(join(TEST_HOST_DIR, 'package.json'), JSON.stringify({ name: 'switchboard-test-host', private: true }, null, 2) + '\n');
    // node-pty's postinstall runs npx (npm_config_yes avoids its prompt); kerberos builds with node-gyp
    // (needs libkrb5-dev). npm 11 no longer knows --unsafe-perm, but code-server's postinstall.sh refuses
    // to run as root unless npm_config_unsafe_perm=true is in its environment: set it directly.
    const { code, output } = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`],
      { cwd: TEST_HOST_DIR, env: cleanEnv({ npm_config_yes: 'true', npm_config_unsafe_perm: 'true' }), quiet: true, timeoutMs: 20 * 60_000 },
    );
    if (code !== 0 || !codeServerInstalled()) {
      throw new Error(`installing code-server failed (exit ${code}):\n${output.split('\n').slice(-40).join('\n')}`);
    }
    log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
    return CODE_SERVER_ENTRY;
  });
}

/** A free TCP port on 127.0.0.1 (the OS picks; code-server binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function baseArgs({ userDataDir, extensionsDir }) {
  // Our own config file: code-server otherwise writes ~/.config/code-server/config.yaml with a password.
  const config = join(userDataDir, 'code-server.yaml');
  if (!existsSync(config)) {
    mkdirSync(userDataDir, { recursive: true });
    writeFileSync(config, 'auth: none\n');
  }
  return ['--config', config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
}

/** `code-server --install-extension file.vsix` into extensionsDir. Throws with its output on failure. */
export async function installVsix(vsix, { userDataDir, extensionsDir }) {
  const entry = await ensureCodeServer();
  const { code, output } = await run(process.execPath, [entry, ...baseArgs({ userDataDir, extensionsDir }), '--install-extension', vsix, '--force'], {
    env: cleanEnv(),
    quiet: true,
    timeoutMs: 120_000,
  });
  if (code !== 0 || !/successfully installed/i.test(output)) {
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${code}):\n${output}`);
  }
  return output.trim();
}

/**
 * Starts code-server on a free loopback port. Returns {url, port, folder, child, stop()}.
 * Its log goes to logFile (and to the console with `echo`). Workspace trust is disabled unless
 * `trust` is true (then the trust flow is real, as for a user). The built-in extensions in
 * `omitBuiltins` are left out (see UNUSED_BUILTINS); their links go beside the user data dir.
 */
export async function startCodeServer({ folder, userDataDir, extensionsDir, trust = false, env = {}, logFile, echo = false, timeoutMs = 90_000, omitBuiltins = [] }) {
  const entry = await ensureCodeServer();
  mkdirSync(extensionsDir, { recursive: true });
  const builtins = omitBuiltins.length ? ['--builtin-extensions-dir', builtinsWithout(omitBuiltins, join(dirname(userDataDir), 'builtin-extensions'))] : [];
  const logStream = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = [
      entry,
      ...baseArgs({ userDataDir, extensionsDir }),
      ...builtins,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(trust ? [] : ['--disable-workspace-trust']),
      ...(folder ? [folder] : []),
    ];
    const child = startTracked(process.execPath, args, {
      env: cleanEnv(env),
      log: (d) => {
        logStream?.write(d);
        if (echo) process.stdout.write(d);
      },
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + timeoutMs;
    let exited = null;
    child.exited.then((e) => (exited = e));
    while (!exited && Date.now() < deadline) {
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) {
          const stop = async () => {
            await child.stop();
            logStream?.end();
          };
          return { url, port, folder, child, stop, userDataDir, extensionsDir };
        }
      } catch {
        /* not listening yet */
      }
      await sleep(250);
    }
    await child.stop();
    if (exited && /EADDRINUSE/.test(child.output) && attempt < 4) continue;
    logStream?.end();
    throw new Error(
      exited
        ? `code-server exited (code ${exited.code}) before it served ${url}:\n${child.output.slice(-3000)}`
        : `code-server did not answer ${url}/healthz within ${timeoutMs / 1000} s:\n${child.output.slice(-3000)}`,
    );
  }
}

/** The workbench URL for a folder; with `payload` pairs, e.g. [["extensionDevelopmentPath", uri]]. */
export function workbenchUrl(server, { folder = server.folder, payload } = {}) {
  const q = new URLSearchParams();
  if (folder) q.set('folder', folder);
  if (payload) q.set('payload', JSON.stringify(payload));
  return `${server.url}/?${q.toString()}`;
}

/** vscode-remote URI of a path on the code-server machine, as extensionDevelopmentPath needs. */
export function remoteUri(server, path) {
  return `vscode-remote://127.0.0.1:${server.port}${path}`;
}
