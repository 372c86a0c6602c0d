// What the chat hears about the open sessions: a session's view changed, its ops, the active tab, a tab
// closed, the history list.
import * as vscode from 'vscode';
import type { BackendSessionView, TranscriptOpsEvent } from '../../chat/chatBackend';
import type { ComposerPrompt } from '../../shared/messages';
import type { Session } from './session';
import type { SessionRegistry } from './sessionRegistry';
import { type SessionViewSources, sessionView } from './views';

export class ChatEvents implements vscode.Disposable {
  private readonly sessionEmitter = new vscode.EventEmitter<BackendSessionView>();
  private readonly closeEmitter = new vscode.EventEmitter<string>();
  private readonly activeEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly opsEmitter = new vscode.EventEmitter<TranscriptOpsEvent>();
  private readonly historyEmitter = new vscode.EventEmitter<{ loading?: boolean }>();
  readonly onDidChangeSession = this.sessionEmitter.event;
  readonly onDidCloseSession = this.closeEmitter.event;
  readonly onDidChangeActiveSession = this.activeEmitter.event;
  readonly onDidApplyOps = this.opsEmitter.event;
  readonly onDidChangeHistory = this.historyEmitter.event;
  private readonly refusedEmitter = new vscode.EventEmitter<{ sessionId: string; prompt: ComposerPrompt }>();
  readonly onDidRefusePrompt = this.refusedEmitter.event;

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly sources: SessionViewSources,
  ) {}

  /** A new session joined the registry: it becomes the active tab and reaches the chat. */
  added(session: Session): void {
    session.onDidApplyOps((ops) => this.opsEmitter.fire({ sessionId: session.key, ops }));
    session.onDidChange(() => this.sessionChanged(session));
    session.onDidRefusePrompt((prompt) => this.refusedEmitter.fire({ sessionId: session.key, prompt }));
    this.setActive(session.key);
    this.sessionChanged(session);
  }

  closed(key: string): void {
    this.closeEmitter.fire(key);
    if (this.sessions.activeKey === key) this.setActive(this.sessions.keys().pop());
  }

  setActive(key: string | undefined): void {
    this.sessions.activeKey = key;
    this.activeEmitter.fire(key);
  }

  sessionChanged(session: Session): void {
    if (!this.sessions.isOpen(session)) return;
    this.sessionEmitter.fire(sessionView(session, this.sources));
  }

  historyChanged(e: { loading?: boolean } = {}): void {
    this.historyEmitter.fire(e);
  }

  dispose(): void {
    for (const e of [this.sessionEmitter, this.closeEmitter, this.activeEmitter, this.opsEmitter, this.historyEmitter, this.refusedEmitter]) e.dispose();
  }
}
