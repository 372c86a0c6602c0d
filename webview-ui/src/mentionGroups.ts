// The `@` picker's groups: which group a candidate belongs to, and the ranked candidates laid out group by
// group (the group with the best match first, each group's best first, a few per group) so files never
// crowd out Problems, Changes, Terminal or Sessions.
import type { MentionCandidate } from '../../src/shared/chatState';

const GROUP_OF: Record<MentionCandidate['kind'], string> = {
  file: 'Files',
  folder: 'Folders',
  editor: 'Open editors',
  selection: 'Open editors',
  symbol: 'Symbols',
  problems: 'Problems',
  changes: 'Changes',
  terminal: 'Terminal',
  session: 'Sessions',
};

export const MENTION_ICON: Record<MentionCandidate['kind'], string> = {
  file: 'file',
  folder: 'folder',
  editor: 'file-code',
  selection: 'selection',
  symbol: 'symbol-method',
  problems: 'warning',
  changes: 'diff',
  terminal: 'terminal',
  session: 'history',
};

export function mentionGroup(kind: MentionCandidate['kind']): string {
  return GROUP_OF[kind] ?? 'Files';
}

/** `ranked` best first -> at most `perGroup` of each group, groups in the order of their best candidate, `limit` in all. */
export function groupMentions(ranked: readonly MentionCandidate[], perGroup: number, limit: number): MentionCandidate[] {
  const groups = new Map<string, MentionCandidate[]>();
  for (const c of ranked) {
    const name = mentionGroup(c.kind);
    const list = groups.get(name) ?? [];
    if (!groups.has(name)) groups.set(name, list);
    if (list.length < perGroup) list.push(c);
  }
  return [...groups.values()].flat().slice(0, limit);
}
