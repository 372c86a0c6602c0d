// The chat's view of the agents' terminals: their output as it arrives, what a reopened chat shows, and
// revealing one in VS Code's terminal panel.
import * as vscode from 'vscode';
import type { TerminalOutputEvent, TerminalsPort } from '../../chat/chatBackend';
import type { TerminalSnapshot } from '../../shared/chatState';
import type { TerminalBridge } from '../terminal/terminalBridge';
import type { SessionRegistry } from './tabs/sessionRegistry';

export class SessionTerminals implements TerminalsPort, vscode.Disposable {
  private readonly ids = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<TerminalOutputEvent>();
  private readonly disposables: vscode.Disposable[];
  readonly onDidOutput = this.emitter.event;

  constructor(
    private readonly terminals: TerminalBridge,
    private readonly sessions: SessionRegistry,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables = [
      this.emitter,
      terminals.onDidOutput((e) => this.fire({ terminalId: e.terminalId, data: e.text })),
      terminals.onDidExit((e) => this.fire({ terminalId: e.terminalId, data: '', exitStatus: e.exitStatus })),
      terminals.onDidChangeOpen((e) => this.fire({ terminalId: e.terminalId, data: '', open: e.open })),
    ];
  }

  snapshots(): TerminalSnapshot[] {
    return [...this.ids].flatMap((terminalId) => {
      const t = this.terminals.getOutput(terminalId);
      return t ? [{ terminalId, output: t.output, truncated: t.truncated, open: t.open, ...(t.exitStatus ? { exitStatus: t.exitStatus } : {}) }] : [];
    });
  }

  /** A closed session's terminal cannot be shown either. */
  reveal(tabId: string, terminalId: string): void {
    const scopedSessionId = this.sessions.get(tabId)?.scopedId;
    if (scopedSessionId !== undefined && this.terminals.reveal(scopedSessionId, terminalId)) return;
    // Closed by the user, trimmed or forgotten: the card stops offering it and says so.
    this.log.info(`Terminal ${terminalId} is closed; it cannot be shown`);
    this.fire({ terminalId, data: '', open: false });
  }

  private fire(e: TerminalOutputEvent): void {
    this.ids.add(e.terminalId);
    this.emitter.fire(e);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
