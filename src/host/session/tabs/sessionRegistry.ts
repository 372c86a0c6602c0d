// The open sessions, by tab id and by agent-qualified session id; which tab is active; and what the chat
// hears about them (a view changed, a transcript's ops, the active tab, a tab closed, a refused message).
import * as vscode from 'vscode';
import type { BackendSessionSnapshot, BackendSessionView, SessionsPort, TranscriptOpsEvent } from '../../../chat/chatBackend';
import type { ComposerPrompt } from '../../../shared/messages';
import type { Session } from '../session';
import { type SessionViewSources, sessionView } from './views';

export class SessionRegistry implements SessionsPort, vscode.Disposable {
  private readonly byKey = new Map<string, Session>();
  private readonly byScopedId = new Map<string, Session>();
  private activeKey: string | undefined;
  private readonly sessionEmitter = new vscode.EventEmitter<BackendSessionView>();
  private readonly closeEmitter = new vscode.EventEmitter<string>();
  private readonly activeEmitter = new vscode.EventEmitter<string | undefined>();
  private readonly opsEmitter = new vscode.EventEmitter<TranscriptOpsEvent>();
  private readonly refusedEmitter = new vscode.EventEmitter<{ tabId: string; prompt: ComposerPrompt }>();
  readonly onDidChangeSession = this.sessionEmitter.event;
  readonly onDidCloseSession = this.closeEmitter.event;
  readonly onDidChangeActiveSession = this.activeEmitter.event;
  readonly onDidApplyOps = this.opsEmitter.event;
  readonly onDidRefusePrompt = this.refusedEmitter.event;

  constructor(private readonly sources: SessionViewSources) {}

  get(key: string): Session | undefined {
    return this.byKey.get(key);
  }

  require(key: string): Session {
    const session = this.byKey.get(key);
    if (!session) throw new Error('That session is closed.');
    return session;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Is this the registered session of its key (not one closed since)? */
  isOpen(session: Session): boolean {
    return this.byKey.get(session.key) === session;
  }

  values(): Session[] {
    return [...this.byKey.values()];
  }

  ofAgent(agentId: string): Session[] {
    return this.values().filter((s) => s.agentId === agentId);
  }

  snapshots(): BackendSessionSnapshot[] {
    return this.values().map((s) => ({ view: sessionView(s, this.sources), transcript: s.transcript }));
  }

  activeTabId(): string | undefined {
    return this.activeKey;
  }

  get active(): Session | undefined {
    return this.activeKey ? this.byKey.get(this.activeKey) : undefined;
  }

  select(key: string | undefined): void {
    if (key !== undefined && !this.byKey.has(key)) return;
    this.activeKey = key;
    this.activeEmitter.fire(key);
  }

  /** A new session joins: it becomes the active tab and reaches the chat. */
  add(session: Session): void {
    this.byKey.set(session.key, session);
    this.byScopedId.set(session.scopedId, session);
    session.onDidApplyOps((ops) => this.opsEmitter.fire({ tabId: session.key, ops }));
    session.onDidChange(() => this.changed(session));
    session.onDidRefusePrompt((prompt) => this.refusedEmitter.fire({ tabId: session.key, prompt }));
    this.select(session.key);
    this.changed(session);
  }

  /** A tab closed: the last one left becomes active when it was. */
  remove(session: Session): void {
    this.byKey.delete(session.key);
    this.byScopedId.delete(session.scopedId);
    this.closeEmitter.fire(session.key);
    if (this.activeKey === session.key) this.select([...this.byKey.keys()].pop());
  }

  /** The session's view changed (also for changes it does not see itself: cards, changed files). */
  changed(session: Session): void {
    if (this.isOpen(session)) this.sessionEmitter.fire(sessionView(session, this.sources));
  }

  /** Runs `change` (which may change the session's agent session id) and indexes the session again. */
  reindex(session: Session, change: () => void): void {
    this.byScopedId.delete(session.scopedId);
    change();
    if (this.byKey.has(session.key)) this.byScopedId.set(session.scopedId, session);
  }

  /** The session of an agent-qualified session id (what the bridges see). */
  scoped(scopedId: string): Session | undefined {
    return this.byScopedId.get(scopedId);
  }

  /** Maps for the history list: which entries are open. */
  get indexes(): { keys: ReadonlyMap<string, Session>; scopedIds: ReadonlyMap<string, Session> } {
    return { keys: this.byKey, scopedIds: this.byScopedId };
  }

  dispose(): void {
    for (const e of [this.sessionEmitter, this.closeEmitter, this.activeEmitter, this.opsEmitter, this.refusedEmitter]) e.dispose();
  }
}
