// The open sessions, by tab key and by agent-qualified session id.
import type { Session } from './session';

export class SessionRegistry {
  private readonly byKey = new Map<string, Session>();
  private readonly byScopedId = new Map<string, Session>();
  activeKey: string | undefined;

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

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  ofAgent(agentId: string): Session[] {
    return this.values().filter((s) => s.agentId === agentId);
  }

  get active(): Session | undefined {
    return this.activeKey ? this.byKey.get(this.activeKey) : undefined;
  }

  add(session: Session): void {
    this.byKey.set(session.key, session);
    this.byScopedId.set(session.scopedId, session);
  }

  remove(session: Session): void {
    this.byKey.delete(session.key);
    this.byScopedId.delete(session.scopedId);
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
}
