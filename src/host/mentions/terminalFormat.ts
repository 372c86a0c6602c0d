// A terminal's last command as the agent gets it: the command line, its output without escape sequences,
// the exit code and the folder it ran in. Pure (no `vscode`): unit-tested with a recorded execution.
import { stripAnsi } from '../../shared/ansi';
import type { RecordedExecution } from './terminalOutput';

export function formatExecution(e: RecordedExecution): string {
  const output = stripAnsi(e.text).replace(/\n+$/, '');
  const fence = output.includes('```') ? '````' : '```';
  const lines = [
    `Terminal "${e.terminalName}"${e.cwd ? ` in ${e.cwd}` : ''}, its last command:`,
    `${fence}console`,
    `$ ${e.commandLine}`,
    ...(e.truncated ? ['… (earlier output dropped)'] : []),
    ...(output ? [output] : []),
    fence,
    e.exitCode === undefined ? 'Exit code: unknown' : `Exit code: ${e.exitCode}`,
  ];
  return `${lines.join('\n')}\n`;
}
