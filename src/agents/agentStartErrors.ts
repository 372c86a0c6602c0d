/*
 * The two ways starting a local agent fails before it runs, as messages for users: its command is not
 * found (resolveCommand.ts), or spawn refused it (agentProcess.ts). Apart from those modules so that the
 * host can tell these errors from others (instanceof) without loading the spawning code, which it loads
 * only when the first agent starts.
 */

/** The agent's command could not be found: a message for users, not a stack trace. */
export class CommandNotFoundError extends Error {
  override readonly name = 'CommandNotFoundError';
  readonly command: string;
  /** PATH folders searched, or the single path checked when the command contains a separator. */
  readonly searched: readonly string[];
  /** True when `command` was a bare name looked up on PATH. */
  readonly searchedPath: boolean;
  readonly installHint: string | undefined;
  readonly agentName: string | undefined;
  constructor(details: { command: string; searched: readonly string[]; searchedPath: boolean; installHint?: string; agentName?: string }) {
    super(commandNotFoundMessage(details));
    this.command = details.command;
    this.searched = details.searched;
    this.searchedPath = details.searchedPath;
    this.installHint = details.installHint;
    this.agentName = details.agentName;
  }
}

/** spawn itself failed (ENOENT, EACCES, ...): a message for users, with the system code. */
export class AgentSpawnError extends Error {
  override readonly name = 'AgentSpawnError';
  constructor(
    readonly agentName: string,
    readonly executable: string,
    /** Node's error code, e.g. 'ENOENT', 'EACCES'. */
    readonly code: string | undefined,
    cause: Error,
  ) {
    super(spawnErrorMessage(agentName, executable, code, cause), { cause });
  }
}

function commandNotFoundMessage(details: { command: string; searched: readonly string[]; searchedPath: boolean; installHint?: string; agentName?: string }): string {
  const who = details.agentName ? `Cannot start ${details.agentName}: ` : '';
  const count = details.searched.length;
  const where = details.searchedPath
    ? `the command "${details.command}" was not found on PATH (${count} ${count === 1 ? 'folder' : 'folders'} searched)`
    : `"${details.searched[0] ?? details.command}" does not exist or is not an executable file`;
  const hint = details.installHint ? ` ${details.installHint.trim().replace(/\.?$/, '.')}` : '';
  const fix = details.searchedPath
    ? ' If it is installed somewhere else, set "command" to its absolute path in the "switchboard.agents" setting.'
    : ' Check "command" in the "switchboard.agents" setting.';
  return `${who}${where}.${hint}${fix}`;
}

function spawnErrorMessage(agentName: string, executable: string, code: string | undefined, cause: Error): string {
  switch (code) {
    case 'EACCES':
      return `Cannot start ${agentName}: "${executable}" is not executable (permission denied). Make it executable (chmod +x) or check "command" in the "switchboard.agents" setting.`;
    case 'ENOENT':
      return `Cannot start ${agentName}: "${executable}" or its working folder does not exist (or its script interpreter is missing).`;
    case 'ENOTDIR':
      return `Cannot start ${agentName}: a part of the path "${executable}" or of its working folder is not a folder.`;
    default:
      return `Cannot start ${agentName} ("${executable}"): ${cause.message}`;
  }
}
