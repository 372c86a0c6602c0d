// The `@` list of the composer: workspace files, folders and open editors (the chat's own VS Code list),
// then the context groups (diagnostics, sessions...). The sessions group reads transcripts on demand.
import type { MentionsPort } from '../../../chat/chatBackend';
import type { MentionCandidate } from '../../../shared/chatState';
import type { MentionSources } from '../../mentions/mentionSources';
import type { SessionRegistry } from '../tabs/sessionRegistry';
import type { TranscriptStore } from '../tabs/transcriptStore';

export class SessionMentions implements MentionsPort {
  constructor(
    private readonly mentions: MentionSources,
    private readonly sessions: SessionRegistry,
    private readonly store: TranscriptStore,
  ) {}

  async query(query: string, tabId: string | undefined): Promise<MentionCandidate[]> {
    const [{ sessionTranscripts }, { queryMentionCandidates }] = await Promise.all([import('../tabs/sessionTranscripts'), import('../../../chat/workspaceMentions')]);
    const [files, context] = await Promise.all([queryMentionCandidates(query), this.mentions.query(query, sessionTranscripts(this.sessions, this.store), tabId)]);
    return [...files, ...context];
  }
}
