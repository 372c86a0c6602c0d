// A terminal's selected text. VS Code's API does not expose it (Terminal.selection is proposed), so it is
// copied through the clipboard with VS Code's own command, and the user's clipboard is put back afterwards.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { MentionRef } from '../../shared/chatState';

export type TerminalCapture = { mention: MentionRef } | { refused: string };

export async function captureTerminalSelection(terminal: vscode.Terminal): Promise<TerminalCapture> {
  if (vscode.window.activeTerminal !== terminal) terminal.show(false);
  const saved = await vscode.env.clipboard.readText();
  // A marker nobody copies: still there after the copy means the terminal had no selection.
  const marker = `switchboard-no-selection-${randomBytes(8).toString('hex')}`;
  let copied: string;
  try {
    await vscode.env.clipboard.writeText(marker);
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    copied = await vscode.env.clipboard.readText();
  } finally {
    await vscode.env.clipboard.writeText(saved);
  }
  if (copied === marker || copied.trim() === '') {
    return { refused: `Nothing was added from the terminal "${terminal.name}": it has no selection. Select its text first, then Add to Chat.` };
  }
  const lines = copied.split(/\r?\n/).length;
  return {
    mention: {
      kind: 'terminalSelection',
      uri: `terminal:${encodeURIComponent(terminal.name)}`,
      label: `${terminal.name} (${lines} ${lines === 1 ? 'line' : 'lines'})`,
      text: copied,
      attached: true,
    },
  };
}
