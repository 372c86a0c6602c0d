// Local transcripts and the open tabs, kept across window reloads: a session with a user message is saved
// when its turn ends and when the window closes; the tabs that were open come back from the store.
import type * as vscode from 'vscode';
import type { Transcript } from '../../../shared/transcript';
import type { Session } from '../session';
import type { StoredSessionMeta, TranscriptStore } from './transcriptStore';

export class SessionTabs {
  constructor(
    private readonly store: TranscriptStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async save(session: Session): Promise<void> {
    if (!session.transcript.items.some((i) => i.kind === 'user_message')) return;
    const meta: StoredSessionMeta = {
      key: session.key,
      agentId: session.agentId,
      acpSessionId: session.acpSessionId,
      title: session.title,
      cwd: session.cwd,
      updatedAt: new Date().toISOString(),
    };
    await this.store.save(meta, session.transcript).catch((e: unknown) => this.log.warn(`Could not save session ${session.key}: ${String(e)}`));
  }

  /** Only sessions with a stored transcript can come back. */
  persist(sessions: Iterable<Session>, activeKey: string | undefined): void {
    const keys = [...sessions].filter((s) => this.store.get(s.key)).map((s) => s.key);
    void this.store.setOpenTabs(keys, activeKey);
  }

  toRestore(): { keys: string[]; active?: string } {
    const { keys, active } = this.store.openTabs();
    return { keys: keys.filter((k) => this.store.get(k)), active };
  }

  async load(key: string): Promise<{ meta: StoredSessionMeta; transcript: Transcript }> {
    const meta = this.store.get(key);
    const transcript = meta && (await this.store.load(key));
    if (!meta || !transcript) throw new Error('That saved session could not be read.');
    return { meta, transcript };
  }
}
