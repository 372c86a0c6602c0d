// `@Sessions`: an earlier session's transcript, as the Markdown that "Export Session as Markdown" writes.
import type { MentionCandidate } from '../../shared/chatState';
import type { Transcript } from '../../shared/transcript';
import type { MentionContent } from './mentionContent';
import { MentionError } from './mentionError';

export const SESSION_SCHEME = 'switchboard-session';

/** The sessions a mention can name: the open ones and the saved ones, newest first. */
export interface SessionTranscripts {
  list(): { key: string; title: string; agentId: string; updatedAt?: string }[];
  /** The transcript of `key` (open, else saved); undefined when it is gone. */
  load(key: string): Promise<{ transcript: Transcript; agentId: string } | undefined>;
}

const loadMarkdown = () => import('../../shared/transcriptMarkdown');

/** Every session but `current`. */
export function sessionCandidates(transcripts: SessionTranscripts, current: string | undefined): MentionCandidate[] {
  return transcripts
    .list()
    .filter((s) => s.key !== current)
    .map((s) => ({ kind: 'session' as const, uri: `${SESSION_SCHEME}:${s.key}`, label: `session:${s.title}`.slice(0, 200), detail: `${s.agentId}${s.updatedAt ? ` · ${s.updatedAt.slice(0, 16).replace('T', ' ')}` : ''}` }));
}

export async function sessionContent(uri: string, label: string, transcripts: SessionTranscripts): Promise<MentionContent> {
  const key = uri.startsWith(`${SESSION_SCHEME}:`) ? uri.slice(SESSION_SCHEME.length + 1) : '';
  const found = key ? await transcripts.load(key) : undefined;
  if (!found) throw new MentionError(`Not sent: the session @${label} is no longer saved.`, 'Nothing was sent. Remove the mention, or pick another session.');
  const { transcriptMarkdown } = await loadMarkdown();
  // Every block whole: the prompt budget, not the export's cut, decides whether it fits.
  const text = transcriptMarkdown(found.transcript, { agentName: found.agentId, maxBlock: Number.MAX_SAFE_INTEGER });
  return { uri: `switchboard://session/${encodeURIComponent(key)}`, name: label, mimeType: 'text/markdown', text, linkable: false };
}
