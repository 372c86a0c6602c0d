// How sessions join and leave the registry: a new session, one opened from history or from a local
// transcript, the tabs restored after a reload, a fork; and how a tab is renamed and closed.
import type * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { NotFoundError, errorMessage } from '../../../acp';
import type { LifecyclePort } from '../../../chat/chatBackend';
import type { FsBridge } from '../../fs/fsBridge';
import type { AgentControl } from '../../agents/agentControl';
import type { AgentRuntime } from '../../agents/agentRuntime';
import { cancelChildrenOf } from '../childSessions';
import { forkedTranscript } from './forkTranscript';
import { Session } from '../session';
import { applySessionDefaults } from '../sessionDefaults';
import type { SessionConnector } from '../sessionConnector';
import type { SessionHistory } from './sessionHistory';
import type { SessionRegistry } from './sessionRegistry';
import type { SessionTabs } from './sessionTabs';
import { additionalDirectories, workspaceCwd } from '../workspaceFolders';

/** The longest session title a rename accepts. */
const MAX_TITLE = 200;

export interface SessionLifecycleOptions {
  log: vscode.LogOutputChannel;
  agents: AgentControl;
  host: SessionConnector;
  sessions: SessionRegistry;
  tabs: SessionTabs;
  history: SessionHistory;
  fs: FsBridge;
}

export class SessionLifecycle implements LifecyclePort {
  constructor(private readonly deps: SessionLifecycleOptions) {}

  /**
   * A new session of the agent (the default one when undefined), made the active tab. Rejects with
   * AuthRequiredError when the agent needs sign-in first: who asked opens it again once signed in.
   */
  async open(agentId?: string): Promise<string> {
    const name = agentId ?? this.deps.agents.defaultAgentId();
    if (!name) throw new Error('No agent is configured. Add one to switchboard.agents.');
    return this.create(name);
  }

  private async create(agentId: string): Promise<string> {
    const runtime = this.deps.agents.runtime(agentId);
    const connection = await runtime.start();
    const cwd = workspaceCwd();
    const key = randomUUID();
    const params = await this.deps.host.paramsOf({ key, agentId, cwd, additionalDirectories: additionalDirectories(cwd) });
    const result = await this.deps.agents.withAuth(agentId, () => connection.newSession(params), 'starts the session').catch((error: unknown) => {
      this.deps.host.releaseTools(key);
      throw error;
    });
    const session = this.add(new Session(this.deps.host, key, agentId, result.sessionId, cwd, params.additionalDirectories), runtime);
    session.applySetup(result);
    session.useInstructions(params.instructions);
    await applySessionDefaults(session, this.deps.agents.definitionOf(agentId), result, this.deps.log);
    return session.key;
  }

  async openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void> {
    if (historyId.startsWith('local:')) return this.openLocal(historyId.slice('local:'.length));
    const item = this.deps.history.agentEntry(historyId);
    if (!item) throw new Error('That history entry is gone.');
    const runtime = this.deps.agents.runtime(item.agentId);
    const connection = await runtime.start();
    const cwd = item.cwd ?? workspaceCwd();
    const session = new Session(this.deps.host, randomUUID(), item.agentId, item.sessionId, cwd, additionalDirectories(cwd));
    session.loading = true;
    this.add(session, runtime);
    try {
      const params = await this.deps.host.paramsOf(session);
      const open = () => (mode === 'resume' ? connection.resumeSession(item.sessionId, params) : connection.loadSession(item.sessionId, params));
      session.applySetup(await this.deps.agents.withAuth(item.agentId, open));
      session.useInstructions(params.instructions);
      session.loaded();
    } catch (error) {
      session.loaded({ message: `Could not ${mode} the session: ${errorMessage(error)}` });
    }
  }

  /** Reopens the tabs that were open before a window reload, from the local transcript store, and the active one. */
  async restoreOpenTabs(): Promise<void> {
    const { keys, active } = this.deps.tabs.toRestore();
    for (const key of keys) {
      if (!this.deps.sessions.has(key)) await this.openLocal(key).catch((e: unknown) => this.deps.log.warn(`Could not reopen session ${key}: ${errorMessage(e)}`));
    }
    if (active) this.deps.sessions.select(active);
  }

  /**
   * session/fork, opened as a new tab. `fromItemId` (a user message): the tab shows the transcript up to
   * that message's turn; the agent's fork has the whole session (the protocol has no fork point). A failure
   * (e.g. -32002, the agent no longer has the session) keeps the original tab and says why in its banner.
   */
  async fork(tabId: string, fromItemId?: string): Promise<string | undefined> {
    const source = this.deps.sessions.require(tabId);
    const key = randomUUID();
    try {
      const runtime = this.deps.agents.runtime(source.agentId);
      const connection = await this.deps.host.connect(source);
      const params = await this.deps.host.paramsOf({ key, agentId: source.agentId, cwd: source.cwd, additionalDirectories: source.additionalDirectories });
      const result = await this.deps.agents.withAuth(source.agentId, () => connection.forkSession(source.acpSessionId, params));
      const { transcript, notice } = forkedTranscript(source.transcript, source.title, result.sessionId, fromItemId);
      const fork = this.add(new Session(this.deps.host, key, source.agentId, result.sessionId, source.cwd, source.additionalDirectories, transcript), runtime);
      fork.applySetup(result);
      fork.useInstructions(params.instructions);
      fork.note(notice.title, notice.description);
      await this.saveTabs(fork);
      return fork.key;
    } catch (error) {
      this.deps.host.releaseTools(key);
      const gone = error instanceof NotFoundError ? ` ${source.agentId} no longer has this session.` : '';
      this.deps.log.warn(`session/fork of ${source.acpSessionId} failed: ${errorMessage(error)}`);
      source.showError({ message: `Could not fork the session.${gone}`, detail: errorMessage(error) });
      return undefined;
    }
  }

  /** Rename: trimmed, at most MAX_TITLE characters; a bad title is said in the session's banner. */
  async rename(tabId: string, title: string): Promise<void> {
    const session = this.deps.sessions.require(tabId);
    const trimmed = title.trim().replace(/\s+/g, ' ');
    if (!trimmed) return session.showError({ message: 'A session title cannot be empty.' });
    if (trimmed.length > MAX_TITLE) return session.showError({ message: `A session title can have at most ${MAX_TITLE} characters; this one has ${trimmed.length}.` });
    try {
      await session.rename(trimmed);
    } catch (error) {
      return session.showError({ message: `Could not rename the session: ${errorMessage(error)}` });
    }
    await this.saveTabs(session);
    this.deps.history.changed();
  }

  /** Ends the session's turn, saves its transcript, closes it at the agent (session/close) and drops the tab. */
  async close(tabId: string): Promise<void> {
    const session = this.deps.sessions.get(tabId);
    if (!session) return;
    const running = this.deps.agents.running(session.agentId)?.connection;
    // Its subagents stop with it, even those that outlived its turn.
    if (running && !session.detached) await cancelChildrenOf(session, running).catch((e: unknown) => this.deps.log.warn(`Cancelling subagents failed: ${errorMessage(e)}`));
    session.cancel();
    session.detach();
    await this.deps.tabs.save(session);
    const connection = this.deps.agents.running(session.agentId)?.connection;
    if (connection && session.acpSessionId && connection.supports('session/close')) {
      await connection.closeSession(session.acpSessionId).catch((e: unknown) => this.deps.log.warn(`session/close failed: ${errorMessage(e)}`));
    }
    // Closed while session/close was in flight (a second close): already gone.
    if (!this.deps.sessions.isOpen(session)) return;
    this.deps.sessions.remove(session);
    this.deps.fs.forgetSession(session.scopedId);
    this.deps.host.checkpoints.forget(session.key);
    session.dispose();
    this.deps.tabs.persist(this.deps.sessions.values(), this.deps.sessions.activeTabId());
    this.deps.history.changed();
  }

  /** Saves every open transcript (window closing). */
  async saveAll(): Promise<void> {
    await Promise.all(this.deps.sessions.values().map((s) => this.deps.tabs.save(s)));
  }

  /** A transcript saved by Switchboard, not bound to a live agent session yet: the first prompt loads it. */
  private async openLocal(key: string): Promise<void> {
    if (this.deps.sessions.has(key)) return this.deps.sessions.select(key);
    const { meta, transcript } = await this.deps.tabs.load(key);
    // A second open of the same tab while the store was read: the first one won.
    if (this.deps.sessions.has(key)) return;
    const session = new Session(this.deps.host, key, meta.agentId, meta.acpSessionId, meta.cwd, additionalDirectories(meta.cwd), transcript);
    session.detached = true;
    // Saved in the middle of a turn (a window reload): that turn is over.
    session.replayEnded();
    this.add(session);
    this.deps.history.changed();
  }

  private add(session: Session, runtime?: AgentRuntime): Session {
    if (runtime) this.deps.host.bind(session, session.acpSessionId, runtime);
    this.deps.sessions.add(session);
    this.deps.host.turnFiles.prepare([session.cwd, ...session.additionalDirectories]);
    return session;
  }

  private async saveTabs(session: Session): Promise<void> {
    await this.deps.tabs.save(session);
    this.deps.tabs.persist(this.deps.sessions.values(), this.deps.sessions.activeTabId());
  }
}
