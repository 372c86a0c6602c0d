// Which opener a chip the user clicked goes to: the host's mention opener when the chip carries lines, a
// kind or text of its own (or its URI names lines, `#L12`); the editor's plain opening otherwise. Links out
// of VS Code and schemes that run something never reach the mention opener.
import type { ResourceContent } from '../shared/messages';

/** Opened outside VS Code through openExternal, which asks before an untrusted domain. */
export const EXTERNAL_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);
/** Never opened from a chip. */
export const REFUSED_SCHEMES: ReadonlySet<string> = new Set(['command', 'javascript', 'data']);

export function opensAsMention(uri: string, content: ResourceContent): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
  if (scheme !== undefined && (EXTERNAL_SCHEMES.has(scheme) || REFUSED_SCHEMES.has(scheme))) return false;
  return /#./s.test(uri) || content.kind !== undefined || content.range !== undefined || content.text !== undefined;
}
