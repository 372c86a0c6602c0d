// The transcript a fork opens with. ACP's session/fork takes no fork point (only the session id): the
// agent's fork always has the whole conversation. "Fork from here" therefore cuts only what the new tab
// shows, after the turn of the chosen message, and the fork's notice says so.
import type { Transcript } from '../../../shared/transcript';

export interface ForkedTranscript {
  transcript: Transcript;
  /** What the fork's notice says about its origin. */
  notice: { title: string; description?: string };
}

export function forkedTranscript(source: Transcript, sourceTitle: string, sessionId: string, fromItemId?: string): ForkedTranscript {
  const copy = structuredClone(source);
  const title = `Fork of ${sourceTitle}`;
  const at = fromItemId === undefined ? -1 : copy.items.findIndex((i) => i.id === fromItemId && i.kind === 'user_message');
  if (fromItemId !== undefined && at < 0) throw new Error('That message is no longer in the session.');
  let end = copy.items.length;
  if (at >= 0) {
    // A steered message belongs to the turn it was sent into: the turn ends at the next prompt.
    const next = copy.items.findIndex((i, index) => index > at && i.kind === 'user_message' && !i.steered);
    if (next >= 0) end = next;
  }
  const cut = end < copy.items.length;
  const transcript: Transcript = { ...copy, sessionId, title, items: copy.items.slice(0, end) };
  return {
    transcript,
    notice: cut
      ? {
          title: `Forked from “${sourceTitle}” at this message`,
          description: 'The agent forks whole sessions only: it still remembers the later messages of the original, which this tab does not show.',
        }
      : { title: `Forked from “${sourceTitle}”` },
  };
}
