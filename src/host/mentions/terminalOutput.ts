// What the terminal history keeps of one finished command, bounded as it streams. Pure (no `vscode`).

/** What shell integration reported of one finished command. */
export interface RecordedExecution {
  terminalName: string;
  commandLine: string;
  /** The raw output (escape sequences and all), as `TerminalShellExecution.read()` streamed it. */
  text: string;
  /** True when older output was dropped to keep the record bounded. */
  truncated: boolean;
  exitCode: number | undefined;
  cwd: string | undefined;
}

/** The most output kept per command; older output is dropped first. */
export const MAX_TERMINAL_OUTPUT = 256 * 1024;

/** Appends a chunk to a bounded output buffer, keeping the newest text. */
export function appendBounded(current: { text: string; truncated: boolean }, chunk: string, max = MAX_TERMINAL_OUTPUT): { text: string; truncated: boolean } {
  const text = current.text + chunk;
  return text.length > max ? { text: text.slice(text.length - max), truncated: true } : { text, truncated: current.truncated };
}
