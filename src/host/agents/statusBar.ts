// A status bar item with the active agent and its state, or the agents that wait for the user; clicking it
// focuses the chat.
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
  private shown: { agentName: string | undefined; state: AgentState } = { agentName: undefined, state: 'idle' };
  private waiting: string[] = [];

  constructor() {
    this.item = vscode.window.createStatusBarItem('switchboard.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Switchboard Agent';
    this.item.command = 'switchboard.focusChat';
    this.show(undefined, 'idle');
  }

  show(agentName: string | undefined, state: AgentState): void {
    this.shown = { agentName, state };
    this.render();
  }

  /** Agents whose sessions wait for the user (attention); empty: the active agent's state again. */
  showWaiting(agentNames: string[]): void {
    this.waiting = agentNames;
    this.render();
  }

  private render(): void {
    const { agentName, state } = this.shown;
    if (this.waiting.length > 0) {
      const who = this.waiting.join(', ');
      const verb = this.waiting.length === 1 ? 'waits' : 'wait';
      this.item.text = `$(bell-dot) ${who} ${verb} for you`;
      this.item.tooltip = `Switchboard: ${who} ${verb} for you. Click to show the chat.`;
      this.item.accessibilityInformation = { label: `Switchboard: ${who} ${verb} for you` };
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.item.show();
      return;
    }
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
