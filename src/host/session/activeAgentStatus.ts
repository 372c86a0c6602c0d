// The status bar item and the `switchboard.turnRunning` context key, derived in one place from the active
// session and its agent, recomputed whenever the active tab, a session or an agent changes. Nothing else
// writes them, so they always describe the tab the user is looking at.
import * as vscode from 'vscode';
import type { AgentView } from '../../shared/chatState';
import type { AgentControl } from '../agents/agentControl';
import type { AgentState, AgentStatusBar } from '../agents/statusBar';
import type { SessionRegistry } from './tabs/sessionRegistry';

/** The status bar's wording for each agent state. */
const AGENT_STATE: Record<AgentView['status'], AgentState> = {
  stopped: 'stopped',
  starting: 'starting',
  ready: 'ready',
  crashed: 'crashed',
  auth_required: 'auth',
};

export class ActiveAgentStatus implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private turnRunning: boolean | undefined;

  /** `changes`: the events after which the active session or its agent may look different. */
  constructor(
    private readonly sessions: SessionRegistry,
    private readonly agents: AgentControl,
    private readonly statusBar: AgentStatusBar,
    changes: readonly vscode.Event<unknown>[],
  ) {
    this.subscriptions = changes.map((event) => event(() => this.update()));
    this.update();
  }

  private update(): void {
    const session = this.sessions.active;
    const running = session !== undefined && session.turn !== 'idle';
    if (!session) this.statusBar.show(undefined, 'idle');
    else this.statusBar.show(session.agentId, running ? 'working' : AGENT_STATE[this.agents.running(session.agentId)?.status ?? 'stopped']);
    if (running === this.turnRunning) return;
    this.turnRunning = running;
    void vscode.commands.executeCommand('setContext', 'switchboard.turnRunning', running);
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
