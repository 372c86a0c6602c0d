import * as fs from 'fs';
import * as path from 'path';
import { CommandNotFoundError } from './agentStartErrors';

/*
 * Finding the agent's executable ourselves (instead of letting spawn fail with ENOENT) gives a clear
 * "not found" message with the install hint, and handles Windows, where npm installs `.cmd` shims
 * that CreateProcess cannot run directly: they must go through `cmd.exe /d /s /c` with careful quoting.
 */

export interface ResolvedCommand {
  /** The command as configured. */
  readonly command: string;
  /** Absolute path of the executable that will run. */
  readonly executable: string;
  /** Windows `.cmd`/`.bat`: must be started through cmd.exe (see `buildSpawnInvocation`). */
  readonly needsWindowsShell: boolean;
}

export interface ResolveCommandOptions {
  /** Base for relative commands such as `./bin/agent` (default: process.cwd()). */
  readonly cwd?: string;
  /** Windows PATHEXT (default `.COM;.EXE;.BAT;.CMD`). */
  readonly pathExt?: string;
  /** Shown in the not-found message, e.g. "Install Gemini CLI with: npm install -g @google/gemini-cli". */
  readonly installHint?: string;
  /** Shown in the not-found message. */
  readonly agentName?: string;
  /** File probe, injectable so Windows lookups can be unit-tested on Linux. */
  readonly isExecutableFile?: (candidate: string, platform: NodeJS.Platform) => boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * Resolves `command` like a shell would: absolute and relative paths are checked as they are, bare
 * names are searched in `pathEnv`. The current folder is deliberately not searched for bare names
 * (a workspace could plant an executable). Throws `CommandNotFoundError`.
 */
export function resolveCommand(
  command: string,
  pathEnv: string | undefined,
  platform: NodeJS.Platform = process.platform,
  options: ResolveCommandOptions = {},
): ResolvedCommand {
  const isWindows = platform === 'win32';
  const paths = isWindows ? path.win32 : path.posix;
  const probe = options.isExecutableFile ?? isExecutableFile;
  const pathExts = isWindows ? windowsExtensions(options.pathExt) : [];

  const candidatesFor = (base: string): string[] => {
    if (!isWindows) return [base];
    // Only names with an executable extension can run on Windows: npm puts an extensionless
    // POSIX shell script right next to every `.cmd` shim, and it must never be picked.
    const ext = paths.extname(base).toUpperCase();
    return pathExts.includes(ext) ? [base] : pathExts.map((extension) => base + extension.toLowerCase());
  };
  const found = (candidate: string): ResolvedCommand => ({
    command,
    executable: candidate,
    needsWindowsShell: isWindows && /\.(cmd|bat)$/i.test(candidate),
  });

  const hasSeparator = isWindows ? /[\\/]/.test(command) : command.includes('/');
  if (hasSeparator || paths.isAbsolute(command)) {
    const absolute = paths.resolve(options.cwd ?? process.cwd(), command);
    for (const candidate of candidatesFor(absolute)) if (probe(candidate, platform)) return found(candidate);
    throw new CommandNotFoundError({ command, searched: [absolute], searchedPath: false, installHint: options.installHint, agentName: options.agentName });
  }

  const folders = (pathEnv ?? '')
    .split(isWindows ? ';' : ':')
    .map((folder) => (isWindows ? folder.replace(/^"(.*)"$/, '$1') : folder))
    .filter((folder) => folder.length > 0 && paths.isAbsolute(folder));
  for (const folder of folders) {
    for (const candidate of candidatesFor(paths.join(folder, command))) if (probe(candidate, platform)) return found(candidate);
  }
  throw new CommandNotFoundError({ command, searched: folders, searchedPath: true, installHint: options.installHint, agentName: options.agentName });
}

/** PATH from an environment, case-insensitively on Windows (where it is usually `Path`). */
export function getPathFromEnv(env: NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return env.PATH;
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH');
  return key === undefined ? undefined : env[key];
}

export interface SpawnInvocation {
  readonly file: string;
  readonly args: string[];
  /** Must be passed to child_process.spawn: the cmd.exe line is already quoted. */
  readonly windowsVerbatimArguments: boolean;
}

/**
 * What to pass to `spawn` for a resolved command. `.cmd`/`.bat` files run as
 * `cmd.exe /d /s /c "<escaped line>"`: /d skips AutoRun, /s makes cmd strip exactly the outer quotes.
 */
export function buildSpawnInvocation(
  resolved: ResolvedCommand,
  args: readonly string[],
  comspec: string = process.env.ComSpec ?? process.env.COMSPEC ?? 'cmd.exe',
): SpawnInvocation {
  if (!resolved.needsWindowsShell) return { file: resolved.executable, args: [...args], windowsVerbatimArguments: false };
  // npm's node_modules/.bin shims re-expand %* through cmd a second time, so their arguments are
  // escaped twice (the rule cross-spawn uses).
  const doubleEscape = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(resolved.executable);
  const line = [escapeCmdCommand(resolved.executable), ...args.map((arg) => escapeCmdArgument(arg, doubleEscape))].join(' ');
  return { file: comspec, args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

const CMD_METACHARS = /([()\][%!^"`<>&|;, *?])/g;

/** Escapes a program path for cmd.exe: every metacharacter (including space) gets a caret. */
export function escapeCmdCommand(command: string): string {
  return command.replace(CMD_METACHARS, '^$1');
}

/**
 * Quotes one argument for the program's C runtime (backslashes before quotes doubled, quotes
 * escaped), then caret-escapes it for cmd.exe so that cmd passes it through untouched.
 */
export function escapeCmdArgument(arg: string, doubleEscape = false): string {
  let quoted = arg.replace(/(\\*)"/g, '$1$1\\"');
  quoted = quoted.replace(/(\\*)$/, '$1$1');
  quoted = `"${quoted}"`;
  quoted = quoted.replace(CMD_METACHARS, '^$1');
  if (doubleEscape) quoted = quoted.replace(CMD_METACHARS, '^$1');
  return quoted;
}

function windowsExtensions(pathExt: string | undefined): string[] {
  const list = (pathExt ?? DEFAULT_PATHEXT)
    .split(';')
    .map((ext) => ext.trim().toUpperCase())
    .filter((ext) => ext.startsWith('.'));
  return list.length > 0 ? list : DEFAULT_PATHEXT.split(';');
}

function isExecutableFile(candidate: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(candidate).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(candidate, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
