// `@Terminal`: a terminal's last command and its output, where the terminal has shell integration. A mention
// names the terminal by its process id (a pseudoterminal, which has none, by its name).
import * as vscode from 'vscode';
import type { MentionCandidate } from '../../shared/chatState';
import type { MentionContent } from './mentionContent';
import { MentionError } from './mentionError';
import { formatExecution } from './terminalFormat';
import type { TerminalHistory } from './terminalHistory';

const TERMINAL_SCHEME = 'switchboard-terminal';

async function uriOf(terminal: vscode.Terminal): Promise<string> {
  const pid = await Promise.resolve(terminal.processId).catch(() => undefined);
  return `${TERMINAL_SCHEME}:${pid ?? `name:${encodeURIComponent(terminal.name)}`}`;
}

/** Every open terminal; one without shell integration says so (sending it explains what to do). */
export async function terminalCandidates(history: TerminalHistory): Promise<MentionCandidate[]> {
  return Promise.all(
    vscode.window.terminals.map(async (t) => {
      const last = history.lastExecution(t);
      const detail = last ? `Last command: ${last.commandLine.slice(0, 80)}` : t.shellIntegration ? 'No command finished yet' : 'No shell integration';
      return { kind: 'terminal' as const, uri: await uriOf(t), label: `terminal:${t.name}`, detail };
    }),
  );
}

export async function terminalContent(uri: string, label: string, history: TerminalHistory): Promise<MentionContent> {
  let terminal: vscode.Terminal | undefined;
  for (const t of vscode.window.terminals) if (!terminal && (await uriOf(t)) === uri) terminal = t;
  if (!terminal || terminal.exitStatus !== undefined) throw new MentionError(`Not sent: the terminal @${label} is closed.`, 'Nothing was sent. Remove the mention, or pick an open terminal.');
  const last = history.lastExecution(terminal);
  if (!last) {
    throw terminal.shellIntegration
      ? new MentionError(`Not sent: no command has finished in the terminal @${label} since Switchboard started.`, 'Nothing was sent. Run the command again, then mention the terminal.')
      : new MentionError(
          `Not sent: the terminal @${label} has no shell integration, so Switchboard cannot tell its last command and output.`,
          'Nothing was sent. Use a shell VS Code integrates with (bash, zsh, fish, pwsh) with terminal.integrated.shellIntegration.enabled on, or select the output and add it to the chat.',
        );
  }
  return { uri: `switchboard://terminal/${encodeURIComponent(terminal.name)}`, name: label, mimeType: 'text/markdown', text: formatExecution(last), linkable: false };
}
