// The title a session shows (its tab, its close button, the history): the transcript's own, else the first
// words of its first message.
import type { Transcript } from '../../shared/transcript';

/**
 * The title of a session before its first message. Not "New session": every tab's close button is named
 * "Close session <title>", and no other button's name may contain the "New session" button's (a user or a
 * script finding that button by name would close the new tab instead).
 */
const UNTITLED = 'Untitled session';

export function sessionTitle(transcript: Transcript): string {
  if (transcript.title) return transcript.title;
  const firstUser = transcript.items.find((i) => i.kind === 'user_message');
  const text = firstUser && firstUser.kind === 'user_message' ? firstUser.content.find((c) => c.type === 'text') : undefined;
  const words = text && text.type === 'text' ? text.text.trim().replace(/\s+/g, ' ') : '';
  return words ? (words.length > 60 ? `${words.slice(0, 57)}…` : words) : UNTITLED;
}
