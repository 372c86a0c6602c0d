// Each terminal's last command, from shell integration: its output is read from the moment the command
// starts (`execution.read()` must be called then, or the output is missed) and kept, bounded, once it ends.
// Registered at startup so commands run before the first `@Terminal` are known.
import * as vscode from 'vscode';
import { appendBounded, type RecordedExecution } from './terminalFormat';

export const TERMINAL_SCHEME = 'switchboard-terminal';

export class TerminalHistory implements vscode.Disposable {
  private readonly ids = new WeakMap<vscode.Terminal, string>();
  private readonly byId = new Map<string, vscode.Terminal>();
  private readonly last = new Map<vscode.Terminal, RecordedExecution>();
  private readonly reading = new Map<vscode.TerminalShellExecution, Promise<{ text: string; truncated: boolean }>>();
  private seq = 0;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables = [
      vscode.window.onDidStartTerminalShellExecution((e) => this.reading.set(e.execution, this.read(e.execution))),
      vscode.window.onDidEndTerminalShellExecution((e) => void this.ended(e)),
      vscode.window.onDidCloseTerminal((t) => {
        this.last.delete(t);
        const id = this.ids.get(t);
        if (id) this.byId.delete(id);
      }),
    ];
  }

  /** The id a mention names the terminal by (`switchboard-terminal:<n>`), stable while it is open. */
  uriOf(terminal: vscode.Terminal): string {
    let id = this.ids.get(terminal);
    if (!id) {
      id = String(++this.seq);
      this.ids.set(terminal, id);
      this.byId.set(id, terminal);
    }
    return `${TERMINAL_SCHEME}:${id}`;
  }

  terminalOf(uri: string): vscode.Terminal | undefined {
    return uri.startsWith(`${TERMINAL_SCHEME}:`) ? this.byId.get(uri.slice(TERMINAL_SCHEME.length + 1)) : undefined;
  }

  lastExecution(terminal: vscode.Terminal): RecordedExecution | undefined {
    return this.last.get(terminal);
  }

  private async read(execution: vscode.TerminalShellExecution): Promise<{ text: string; truncated: boolean }> {
    let out = { text: '', truncated: false };
    try {
      for await (const chunk of execution.read()) {
        const next = appendBounded(out.text, chunk);
        out = { text: next.text, truncated: out.truncated || next.truncated };
      }
    } catch (e) {
      this.log.warn(`terminal history: reading a command's output failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return out;
  }

  private async ended(e: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const output = (await this.reading.get(e.execution)) ?? { text: '', truncated: false };
    this.reading.delete(e.execution);
    if (e.terminal.exitStatus !== undefined && !vscode.window.terminals.includes(e.terminal)) return;
    this.last.set(e.terminal, {
      terminalName: e.terminal.name,
      commandLine: e.execution.commandLine.value,
      output: output.text,
      truncated: output.truncated,
      exitCode: e.exitCode,
      cwd: e.execution.cwd?.fsPath,
    });
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.last.clear();
    this.byId.clear();
  }
}
