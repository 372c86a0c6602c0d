// Throwaway directories for one run: a copy of the sample workspace, user data with settings, extensions.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_WORKSPACE, TMP } from './paths.mjs';

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
};

/** A fresh temp dir with workspace/, user-data/ (settings written), extensions/. */
export function makeRunDirs(prefix, { settings = {}, workspace = FIXTURE_WORKSPACE } = {}) {
  const root = mkdtempSync(join(TMP, `${prefix}-`));
  const dirs = {
    root,
    workspace: join(root, 'workspace'),
    userDataDir: join(root, 'user-data'),
    extensionsDir: join(root, 'extensions'),
  };
  if (existsSync(workspace)) cpSync(workspace, dirs.workspace, { recursive: true });
  else mkdirSync(dirs.workspace, { recursive: true });
  mkdirSync(dirs.extensionsDir, { recursive: true });
  writeUserSettings(dirs.userDataDir, { ...BASE_SETTINGS, ...settings });
  return dirs;
}

export function userSettingsPath(userDataDir) {
  return join(userDataDir, 'User', 'settings.json');
}

export function writeUserSettings(userDataDir, settings) {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(userSettingsPath(userDataDir), JSON.stringify(settings, null, 2) + '\n');
}

export function readUserSettings(userDataDir) {
  try {
    return JSON.parse(readFileSync(userSettingsPath(userDataDir), 'utf8'));
  } catch {
    return {};
  }
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
