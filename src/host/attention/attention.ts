// Calls the user back when a session needs them while they look elsewhere: a turn ended or failed, a
// permission request, an elicitation or a sign-in waits. Fed by the chat backend's events; says it with a
// notification ("Show" reveals the session), the chat view's badge (sessions waiting) and the status bar.
// "Looking at a session": the window is focused, a chat surface is on screen and the session is its tab.
import * as vscode from 'vscode';
import type { BackendSessionView, ChatBackend } from '../../chat/chatBackend';
import type { AgentView } from '../../shared/chatState';
import { AttentionNotices } from './notices';
import { agentKey, sessionWait, signInWait, type Wait, type WaitKind } from './waits';

export const SHOW_COMMAND = 'switchboard.attention.show';

/** Waits that stay until the user answers them (a turn's end is over once seen). */
const PENDING = new Set<WaitKind>(['permission', 'elicitation', 'signIn']);

export type NotificationsSetting = 'whenHidden' | 'always' | 'off';

/** The chat where the user answers (the side bar view, the editor tab). */
export interface AttentionSurface {
  readonly isVisible: boolean;
  readonly onDidChangeVisibility: vscode.Event<void>;
  setBadge(badge: vscode.ViewBadge | undefined): void;
  /** Shows the chat with this session as its tab (and the permission request, when given). */
  reveal(sessionId: string | undefined, requestId?: string): Promise<void>;
}

export interface AttentionDeps {
  backend: Pick<ChatBackend, 'sessions' | 'agents'>;
  chat: AttentionSurface;
  /** The status bar says which agents wait (empty: none). */
  showWaiting(agentNames: string[]): void;
  log: vscode.LogOutputChannel;
}

export class Attention implements vscode.Disposable {
  private readonly views = new Map<string, BackendSessionView>();
  private readonly agents = new Map<string, AgentView>();
  private readonly turnEnds = new Map<string, number>();
  /** Waits the user has not seen, by key (a session, or an agent's sign-in). */
  private readonly waits = new Map<string, Wait>();
  /** Requests the user saw arrive and has not answered: looking away from them still calls the user, once. */
  private readonly seenPending = new Map<string, Wait>();
  /** The identity of each key's current wait, seen or not: a view change that repeats it is not a new wait. */
  private readonly current = new Map<string, string>();
  private readonly notices: AttentionNotices;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly d: AttentionDeps) {
    this.notices = new AttentionNotices(SHOW_COMMAND);
    for (const s of d.backend.sessions.snapshots()) this.views.set(s.view.sessionId, s.view);
    for (const a of d.backend.agents.views()) this.agents.set(a.id, a);
    this.subscriptions.push(
      d.backend.sessions.onDidChangeSession((v) => this.sessionChanged(v)),
      d.backend.sessions.onDidCloseSession((id) => this.sessionClosed(id)),
      d.backend.agents.onDidChange(() => this.agentsChanged()),
      d.backend.sessions.onDidChangeActiveSession(() => this.lookChanged()),
      d.chat.onDidChangeVisibility(() => this.lookChanged()),
      vscode.window.onDidChangeWindowState(() => this.lookChanged()),
      vscode.commands.registerCommand(SHOW_COMMAND, (key: unknown) => this.show(typeof key === 'string' ? key : '')),
      this.notices,
    );
  }

  /** Sessions (and agents signing in) that wait for the user. */
  get waiting(): readonly Wait[] {
    return [...this.waits.values()];
  }

  private get setting(): NotificationsSetting {
    const v = vscode.workspace.getConfiguration('switchboard').get<string>('notifications');
    return v === 'always' || v === 'off' ? v : 'whenHidden';
  }

  private sessionChanged(v: BackendSessionView): void {
    const prev = this.views.get(v.sessionId);
    this.views.set(v.sessionId, v);
    const ended = prev !== undefined && prev.turn !== 'idle' && v.turn === 'idle';
    if (ended) this.turnEnds.set(v.sessionId, (this.turnEnds.get(v.sessionId) ?? 0) + 1);
    const wait = sessionWait(prev, v, {
      agentName: this.agents.get(v.agentId)?.name ?? v.agentId,
      stopReason: ended ? this.lastStopReason(v.sessionId) : undefined,
      turnEnds: this.turnEnds.get(v.sessionId) ?? 0,
    });
    if (wait === null) this.end(v.sessionId);
    else if (wait) this.begin(wait);
  }

  private sessionClosed(id: string): void {
    this.views.delete(id);
    this.turnEnds.delete(id);
    this.end(id);
  }

  private agentsChanged(): void {
    for (const a of this.d.backend.agents.views()) {
      const wait = signInWait(this.agents.get(a.id), a);
      this.agents.set(a.id, a);
      if (wait === null) this.end(agentKey(a.id));
      else if (wait) this.begin(wait);
    }
  }

  private lastStopReason(sessionId: string): string | undefined {
    const items = this.d.backend.sessions.snapshots().find((s) => s.view.sessionId === sessionId)?.transcript.items ?? [];
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item.kind === 'turn_end') return item.stopReason;
      if (item.kind === 'user_message') return undefined;
    }
    return undefined;
  }

  private begin(wait: Wait): void {
    if (this.current.get(wait.key) === wait.identity) return;
    this.current.set(wait.key, wait.identity);
    const watched = this.isWatched(wait);
    this.seenPending.delete(wait.key);
    if (watched) {
      this.waits.delete(wait.key);
      if (PENDING.has(wait.kind)) this.seenPending.set(wait.key, wait);
    } else {
      this.waits.set(wait.key, wait);
    }
    const setting = this.setting;
    if (setting === 'always' || (setting === 'whenHidden' && !watched)) this.notices.show(wait);
    else this.notices.close(wait.key);
    this.d.log.info(`attention: ${wait.kind} in ${wait.key} (${watched ? 'watched' : 'not watched'}, notifications ${setting})`);
    this.render();
  }

  private end(key: string): void {
    this.current.delete(key);
    this.seenPending.delete(key);
    this.notices.close(key);
    if (this.waits.delete(key)) this.render();
  }

  /** The user may now look at a session that waited (it is seen), or away from a request still pending. */
  private lookChanged(): void {
    const always = this.setting === 'always';
    let changed = false;
    for (const w of [...this.seenPending.values()]) {
      if (this.isWatched(w)) continue;
      this.seenPending.delete(w.key);
      this.waits.set(w.key, w);
      // With `always` its notification was shown when it arrived.
      if (this.setting === 'whenHidden') this.notices.show(w);
      changed = true;
    }
    for (const w of [...this.waits.values()]) {
      if (!this.isWatched(w)) continue;
      this.waits.delete(w.key);
      if (!always) this.notices.close(w.key);
      changed = true;
    }
    if (changed) this.render();
  }

  private isWatched(w: Wait): boolean {
    if (!vscode.window.state.focused || !this.d.chat.isVisible) return false;
    const active = this.d.backend.sessions.activeTabId();
    if (w.sessionId !== undefined) return active === w.sessionId;
    // A sign-in is answered in the chat whichever tab shows, unless another agent's session is the tab.
    const activeAgent = active === undefined ? undefined : this.views.get(active)?.agentId;
    return activeAgent === undefined || agentKey(activeAgent) === w.key;
  }

  private render(): void {
    const n = this.waits.size;
    this.d.chat.setBadge(n === 0 ? undefined : { value: n, tooltip: n === 1 ? '1 session waits for you' : `${n} sessions wait for you` });
    this.d.showWaiting([...new Set([...this.waits.values()].map((w) => w.agentName))]);
  }

  /** "Show" on a notification: the session (and its request) on screen. False when there is nothing to show. */
  async show(key: string): Promise<boolean> {
    const wait = this.waits.get(key) ?? this.notices.waitOf(key);
    this.notices.close(key);
    if (this.waits.delete(key)) this.render();
    if (key.startsWith('agent:')) {
      await this.d.chat.reveal(undefined);
      return true;
    }
    if (!this.views.has(key)) {
      void vscode.window.showInformationMessage(
        `Switchboard: the session${wait?.sessionTitle ? ` “${wait.sessionTitle}”` : ''} was closed; there is nothing to show.`,
      );
      return false;
    }
    const requestId = wait?.kind === 'permission' && this.views.get(key)?.permissions.some((p) => p.requestId === wait.requestId) ? wait.requestId : undefined;
    await this.d.chat.reveal(key, requestId);
    return true;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
