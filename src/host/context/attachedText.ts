// What a chip that carries its own text (a terminal's selection, a diff, a problem) becomes in the prompt:
// a `resource` with a mimeType when the agent takes embedded context, else a text block that names it.
import type { ContentBlock } from '../../acp';
import type { MentionRef } from '../../shared/chatState';

const MIME: Record<string, string> = { terminalSelection: 'text/plain', diff: 'text/x-diff', diagnostic: 'text/plain' };
const WHAT: Record<string, string> = { terminalSelection: 'Terminal selection', diff: 'Changes (unified diff)', diagnostic: 'Problem' };

/** A chip of a kind that carries its text (other kinds are read from their uri when sent). */
export function carriesText(mention: MentionRef): mention is MentionRef & { text: string } {
  return mention.text !== undefined && mention.kind in MIME;
}

export function attachedTextBlock(mention: MentionRef & { text: string }, embed: boolean): ContentBlock {
  const uri = mention.range && mention.kind === 'diagnostic' ? `${mention.uri}#L${mention.range.startLine}` : mention.uri;
  if (embed) return { type: 'resource', resource: { uri, text: mention.text, mimeType: MIME[mention.kind] ?? 'text/plain' } };
  const fence = mention.text.includes('```') ? '~~~~' : '```';
  return { type: 'text', text: `${WHAT[mention.kind] ?? 'Context'}: ${mention.label} (${uri})\n${fence}\n${mention.text}\n${fence}` };
}
