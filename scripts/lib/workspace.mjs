// Throwaway directories for one run: a copy of the sample workspace, user data with settings, extensions.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIXTURE_WORKSPACE, PKG, TMP } from './paths.mjs';
import { killTreeSync } from './proc.mjs';

const RUN_DIR = /^switchboard-(host|e2e|try)-/;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes run dirs left by runners that were killed without a chance to clean up (SIGKILL), and kills
 * the code-server/Chromium processes still working in them. Only dirs holding our owner.json are touched.
 */
export function sweepStaleRuns() {
  let names = [];
  try {
    names = readdirSync(TMP).filter((n) => RUN_DIR.test(n));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = join(TMP, name);
    let owner;
    try {
      owner = JSON.parse(readFileSync(join(dir, 'owner.json'), 'utf8')).pid;
    } catch {
      continue;
    }
    if (!owner || alive(owner)) continue;
    for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) killTreeSync(Number(pid));
      } catch {
        /* gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Settings that keep the workbench quiet and deterministic for tests and screenshots. */
export const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'chat.commandCenter.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  // Where TypeScript support runs (the host tier): no typings installer process, which otherwise runs
  // `npm install` of @types packages against the registry for every JavaScript project it sees.
  'typescript.disableAutomaticTypeAcquisition': true,
  // JSON schemas come from the extensions and the workbench only, never fetched from the network.
  'json.schemaDownload.enable': false,
  // Headless Chromium has no GPU: the terminal's WebGL renderer runs in software on the GPU process.
  'terminal.integrated.gpuAcceleration': 'off',
  // A blinking editor cursor repaints twice a second in every window for the whole test.
  'editor.cursorBlinking': 'solid',
  // The minimap repaints on every change of an open editor; no test looks at it.
  'editor.minimap.enabled': false,
};

/** A fresh temp dir with workspace/, user-data/ (settings written), extensions/. */
export function makeRunDirs(prefix, { settings = {}, workspace = FIXTURE_WORKSPACE } = {}) {
  sweepStaleRuns();
  const root = mkdtempSync(join(TMP, `${prefix}-`));
  writeFileSync(join(root, 'owner.json'), JSON.stringify({ pid: process.pid }));
  const dirs = {
    root,
    workspace: join(root, 'workspace'),
    userDataDir: join(root, 'user-data'),
    extensionsDir: join(root, 'extensions'),
  };
  if (existsSync(workspace)) cpSync(workspace, dirs.workspace, { recursive: true });
  else mkdirSync(dirs.workspace, { recursive: true });
  mkdirSync(dirs.extensionsDir, { recursive: true });
  // Terminals start from an empty HOME: the machine's dotfiles are not part of a test (a ~/.bashrc that
  // hangs, as `pyenv init` does on a stale lock that a shell killed at the end of a test can leave, keeps
  // every later terminal from reaching its prompt).
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  writeUserSettings(dirs.userDataDir, { ...BASE_SETTINGS, 'terminal.integrated.env.linux': { HOME: home }, ...settings });
  return dirs;
}

export function userSettingsPath(userDataDir) {
  return join(userDataDir, 'User', 'settings.json');
}

/** code-server's "Remote" settings: the only place its window reads machine-scoped settings from. */
export function machineSettingsPath(userDataDir) {
  return join(userDataDir, 'Machine', 'settings.json');
}

/**
 * The settings this extension declares with a machine scope (switchboard.agents, …). code-server's window
 * is a remote window, where VS Code ignores such settings in the user settings file: they go to the
 * Machine file. (Read at first only by chance, before the extension registered their scope.)
 */
export const MACHINE_SCOPED = new Set(
  [PKG.contributes?.configuration ?? []]
    .flat()
    .flatMap((section) => Object.entries(section.properties ?? {}))
    .filter(([, schema]) => schema.scope === 'machine' || schema.scope === 'machine-overridable')
    .map(([key]) => key),
);

/** Writes `settings` into the user settings, machine-scoped ones into the Machine settings. */
export function writeUserSettings(userDataDir, settings) {
  const user = {};
  const machine = {};
  for (const [key, value] of Object.entries(settings)) (MACHINE_SCOPED.has(key) ? machine : user)[key] = value;
  for (const [file, values] of [[userSettingsPath(userDataDir), user], [machineSettingsPath(userDataDir), machine]]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(values, null, 2) + '\n');
  }
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
