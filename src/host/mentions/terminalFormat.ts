// A terminal's last command as the agent gets it: the command line, its output without escape sequences,
// the exit code and the folder it ran in. Pure (no `vscode`): unit-tested with a recorded execution.
import { stripAnsi } from '../../shared/ansi';

/** What shell integration reported of one finished command. */
export interface RecordedExecution {
  terminalName: string;
  commandLine: string;
  /** The raw output (escape sequences and all), as `TerminalShellExecution.read()` streamed it. */
  output: string;
  /** True when older output was dropped to keep the record bounded. */
  truncated: boolean;
  exitCode: number | undefined;
  cwd: string | undefined;
}

/** The most output kept per command; older output is dropped first. */
export const MAX_TERMINAL_OUTPUT = 256 * 1024;

/** Appends a chunk to a bounded output buffer, keeping the newest text. */
export function appendBounded(current: string, chunk: string, max = MAX_TERMINAL_OUTPUT): { text: string; truncated: boolean } {
  const text = current + chunk;
  return text.length > max ? { text: text.slice(text.length - max), truncated: true } : { text, truncated: false };
}

export function formatExecution(e: RecordedExecution): string {
  const output = stripAnsi(e.output).replace(/\n+$/, '');
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
