// Each terminal's last command, from shell integration: its output is read from the moment the command
// starts (`execution.read()` must be called then, or the output is missed) and kept, bounded, once it ends.
// Registered at startup so commands run before the first `@Terminal` are known; everything else about the
// Terminal group loads with its first use (terminalMention.ts).
import * as vscode from 'vscode';
import { appendBounded, type RecordedExecution } from './terminalOutput';

export class TerminalHistory implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, RecordedExecution>();
  private readonly reading = new Map<vscode.TerminalShellExecution, Promise<{ text: string; truncated: boolean }>>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables = [
      vscode.window.onDidStartTerminalShellExecution((e) => this.reading.set(e.execution, this.read(e.execution))),
      vscode.window.onDidEndTerminalShellExecution((e) => void this.ended(e)),
      vscode.window.onDidCloseTerminal((t) => this.last.delete(t)),
    ];
  }

  lastExecution(terminal: vscode.Terminal): RecordedExecution | undefined {
    return this.last.get(terminal);
  }

  private async read(execution: vscode.TerminalShellExecution): Promise<{ text: string; truncated: boolean }> {
    let out = { text: '', truncated: false };
    try {
      for await (const chunk of execution.read()) out = appendBounded(out, chunk);
    } catch (e) {
      this.log.warn(`@ Terminal: reading a command's output failed: ${String(e)}`);
    }
    return out;
  }

  private async ended(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const output = (await this.reading.get(e.execution)) ?? { text: '', truncated: false };
    this.reading.delete(e.execution);
    if (!vscode.window.terminals.includes(e.terminal)) return;
    this.last.set(e.terminal, { terminalName: e.terminal.name, commandLine: e.execution.commandLine.value, ...output, exitCode: e.exitCode, cwd: e.execution.cwd?.fsPath });
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.last.clear();
  }
}
