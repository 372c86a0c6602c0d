// The history list: transcripts kept locally (the transcript store) merged with what each running
// agent reports through session/list. Open sessions are left out; a session known both ways shows once,
// from the local store, which has the full transcript.
import * as vscode from 'vscode';
import { errorMessage, listedSessionActions } from '../../../acp';
import type { HistoryPort } from '../../../chat/chatBackend';
import type { HistoryItem } from '../../../shared/chatState';
import type { AgentControl } from '../../agents/agentControl';
import type { AgentRuntime } from '../../agents/agentRuntime';
import { scopedSessionId } from '../session';
import type { SessionRegistry } from './sessionRegistry';
import type { TranscriptStore } from './transcriptStore';
import { workspaceCwd } from '../workspaceFolders';

/** How many entries one agent's session/list may add (its paging is followed up to here). */
const MAX_LISTED_PER_AGENT = 500;

export interface SessionHistoryOptions {
  store: TranscriptStore;
  /** The open sessions, which the list leaves out. */
  sessions: SessionRegistry;
  /** The agents asked for their sessions (session/list) and to delete one. */
  agents: AgentControl;
  log: vscode.LogOutputChannel;
}

export class SessionHistory implements HistoryPort, vscode.Disposable {
  /** `agent:<agent>:<sessionId>` -> entry, from the last session/list of each agent. */
  private readonly fromAgents = new Map<string, HistoryItem>();
  private readonly emitter = new vscode.EventEmitter<{ loading?: boolean }>();
  /** The list changed, or a refresh started (`loading: true`) or ended (`loading: false`). */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly deps: SessionHistoryOptions) {}

  /** The list may have changed (a tab opened, renamed or closed). */
  changed(): void {
    this.emitter.fire({});
  }

  /** Sessions open in tabs (by tab key, and by agent-scoped session id) are left out. */
  list(): HistoryItem[] {
    const open = this.deps.sessions.indexes;
    const local: HistoryItem[] = this.deps.store
      .list()
      .filter((m) => !open.keys.has(m.key))
      .map((m) => ({
        id: `local:${m.key}`,
        sessionId: m.acpSessionId,
        agentId: m.agentId,
        title: m.title,
        updatedAt: m.updatedAt,
        source: 'local',
        cwd: m.cwd,
        canLoad: true,
        canResume: false,
        canDelete: true,
      }));
    // Session ids are unique only per agent: another agent's session with the same id is another session.
    const localIds = new Set(local.map((l) => scopedSessionId(l.agentId, l.sessionId)));
    const fromAgents = [...this.fromAgents.values()].filter((h) => {
      const scoped = scopedSessionId(h.agentId, h.sessionId);
      return !localIds.has(scoped) && !open.scopedIds.has(scoped);
    });
    return [...local, ...fromAgents];
  }

  /** An entry reported by an agent (`agent:` ids), or undefined when it is gone. */
  agentEntry(historyId: string): HistoryItem | undefined {
    return this.fromAgents.get(historyId);
  }

  /** Asks every running agent that can list sessions for its sessions in the workspace; one failing agent hides no other's. */
  async refresh(): Promise<void> {
    const cwd = workspaceCwd();
    this.emitter.fire({ loading: true });
    try {
      for (const runtime of this.deps.agents.all()) await this.listFrom(runtime, cwd).catch((error: unknown) => this.deps.log.warn(`session/list of ${runtime.name} failed: ${errorMessage(error)}`));
    } finally {
      this.emitter.fire({ loading: false });
    }
  }

  private async listFrom(runtime: AgentRuntime, cwd: string): Promise<void> {
    const connection = runtime.connection;
    if (!connection?.supports('session/list')) return;
    const actions = listedSessionActions(connection.agent?.agentCapabilities);
    let count = 0;
    for await (const info of connection.listAllSessions({ cwd })) {
      const id = `agent:${runtime.name}:${info.sessionId}`;
      this.fromAgents.set(id, {
        id,
        sessionId: info.sessionId,
        agentId: runtime.name,
        title: info.title ?? info.sessionId,
        updatedAt: info.updatedAt ?? undefined,
        source: 'agent',
        cwd: info.cwd,
        ...actions,
      });
      if (++count >= MAX_LISTED_PER_AGENT) break;
    }
  }

  /** Deletes a local transcript, or asks the agent to delete its session. */
  async delete(historyId: string): Promise<void> {
    if (historyId.startsWith('local:')) {
      await this.deps.store.delete(historyId.slice('local:'.length));
    } else {
      const item = this.fromAgents.get(historyId);
      const connection = item && this.deps.agents.running(item.agentId)?.connection;
      if (item && connection) await connection.deleteSession(item.sessionId);
      this.fromAgents.delete(historyId);
    }
    this.emitter.fire({});
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
