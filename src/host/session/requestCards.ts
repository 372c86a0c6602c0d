// The permission and elicitation cards in the chat: a card asked or answered refreshes its session's view,
// an auto-approval is noted where the tool call shows, the chat's answers go back to the brokers, and the
// one place that cancels pending requests (Stop, crash, restart, close, window closing).
import type * as vscode from 'vscode';
import type { ElicitationAnswer } from '../../shared/chatState';
import type { PermissionAnswer } from '../../shared/messages';
import type { ElicitationBroker } from '../permissions/elicitationBroker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { SessionRegistry } from './tabs/sessionRegistry';

export class RequestCards {
  constructor(
    private readonly permissions: PermissionBroker,
    private readonly elicitations: ElicitationBroker,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Calls `changed` with the agent-qualified session id of every card asked or answered. */
  watch(sessions: SessionRegistry, changed: (scopedId: string | undefined) => void): vscode.Disposable[] {
    return [
      this.permissions.onDidRequest((p) => changed(p.sessionId)),
      this.permissions.onDidResolve((d) => {
        // A switchboard.autoApprove rule answered without a card: said where the tool call shows.
        if (d.via === 'auto' && d.autoApproved) sessions.scoped(d.prompt.sessionId)?.noteAutoApproval(d.prompt.toolCall.title ?? undefined, d.autoApproved.description);
        changed(d.prompt.sessionId);
      }),
      this.elicitations.onDidRequest((p) => changed(p.sessionId)),
      this.elicitations.onDidResolve((d) => changed(d.prompt.sessionId)),
    ];
  }

  answerPermission(requestId: string, answer: PermissionAnswer): void {
    // A card dismissed without choosing: the request stays answerable from the notification or diff editor.
    if ('cancelled' in answer) this.log.info(`Permission card ${requestId} dismissed`);
    else if (!this.permissions.resolve(requestId, answer.optionId)) this.log.warn(`Permission ${requestId} was already answered`);
  }

  answerElicitation(requestId: string, answer: ElicitationAnswer): void {
    this.elicitations.resolve(requestId, answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action });
  }

  /** Answers the session's pending permission and elicitation requests with cancelled. */
  cancel(scopedId: string): void {
    this.permissions.cancelAll(scopedId);
    this.elicitations.cancelAll(scopedId);
  }

  /** The window is closing: every pending card is cancelled so the agents' requests end. */
  cancelAll(): void {
    this.permissions.cancelAllPending();
    this.elicitations.cancelAllPending();
  }
}
