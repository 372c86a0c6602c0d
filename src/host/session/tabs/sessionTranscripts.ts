// The sessions an `@Sessions` mention can name: the open tabs (their live transcripts) and the saved ones.
import type { SessionTranscripts } from '../../mentions/sessionMention';
import type { SessionRegistry } from './sessionRegistry';
import type { TranscriptStore } from './transcriptStore';

export function sessionTranscripts(sessions: SessionRegistry, store: TranscriptStore): SessionTranscripts {
  return {
    list() {
      const open = sessions.values().map((s) => ({ key: s.key, title: s.title, agentId: s.agentId, updatedAt: s.transcript.updatedAt }));
      const openKeys = new Set(open.map((s) => s.key));
      const saved = store.list().filter((m) => !openKeys.has(m.key)).map((m) => ({ key: m.key, title: m.title, agentId: m.agentId, updatedAt: m.updatedAt }));
      return [...open, ...saved];
    },
    async load(key) {
      const open = sessions.get(key);
      if (open) return { transcript: open.transcript, agentId: open.agentId };
      const meta = store.get(key);
      const transcript = meta && (await store.load(key));
      return meta && transcript ? { transcript, agentId: meta.agentId } : undefined;
    },
  };
}
