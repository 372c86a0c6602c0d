// The subagent item of a transcript: a child session nested where its parent announced it. Its header
// (labels, state, capabilities) is patched by `subagent_update`; its own transcript is reduced by a
// TranscriptState of its own (transcriptState.ts keeps one per child and sends its ops as `nest`).
import { emptyTranscript, type SubagentItem } from '../../shared/transcript';
import type { SubagentUpdate } from '../schema/subagents';

/** A child that sent updates before (or without) its announcement: kept, shown as "Unknown subagent". */
export function unannouncedSubagent(id: string, sessionId: string): SubagentItem {
  return { kind: 'subagent', id, sessionId, unannounced: true, transcript: emptyTranscript(sessionId) };
}

/** `previous` patched by `update`: omitted fields stay, `null` clears. */
export function patchSubagent(previous: SubagentItem, update: SubagentUpdate): SubagentItem {
  const next: SubagentItem = { ...previous };
  delete next.unannounced;
  const set = <K extends 'title' | 'description' | 'cwd' | 'additionalDirectories' | 'state'>(key: K, value: SubagentItem[K] | null | undefined) => {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  };
  set('title', update.title);
  set('description', update.description);
  set('cwd', update.cwd);
  set('additionalDirectories', update.additionalDirectories);
  set('state', update.state);
  // A concrete capability object replaces the whole set; null clears it.
  if (update.capabilities === null || update.capabilities?.cancel === false) delete next.cancellable;
  else if (update.capabilities?.cancel) next.cancellable = true;
  return next;
}

/** The item as an op carries it: a deep copy, since the host's child transcript keeps changing in place. */
export function snapshotSubagent(item: SubagentItem): SubagentItem {
  return structuredClone(item);
}
