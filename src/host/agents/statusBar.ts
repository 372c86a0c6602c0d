// A status bar item with the active agent and its state; clicking it focuses the chat.
import * as vscode from 'vscode';

export type AgentState = 'idle' | 'starting' | 'ready' | 'working' | 'crashed' | 'stopped' | 'auth';

const ICONS: Record<AgentState, string> = {
  idle: '$(comment-discussion)',
  starting: '$(loading~spin)',
  ready: '$(pass)',
  working: '$(sync~spin)',
  crashed: '$(error)',
  stopped: '$(circle-slash)',
  auth: '$(key)',
};

const LABELS: Record<AgentState, string> = {
  idle: 'no session',
  starting: 'starting',
  ready: 'ready',
  working: 'working',
  crashed: 'crashed',
  stopped: 'stopped',
  auth: 'sign-in required',
};

export class AgentStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('switchboard.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Switchboard Agent';
    this.item.command = 'switchboard.focusChat';
    this.show(undefined, 'idle');
  }

  show(agentName: string | undefined, state: AgentState): void {
    const name = agentName ?? 'Switchboard';
    this.item.text = `${ICONS[state]} ${name}`;
    this.item.tooltip = `${name}: ${LABELS[state]}`;
    this.item.accessibilityInformation = { label: `Switchboard agent ${name}, ${LABELS[state]}` };
    this.item.backgroundColor =
      state === 'crashed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
