// The changes of a transcript, as the reducer (src/acp/session/transcriptState.ts) makes them. The host's
// transcript and the webview's copy apply the same ops in the same order, so nothing is ever diffed.
import type { Transcript, TranscriptContent, TranscriptItem } from './transcript';

/** The transcript fields other than `items` (title, commands, modes, config options, models, usage...). */
export type TranscriptMeta = Omit<Transcript, 'items' | 'sessionId'>;

/** One change of a session's transcript. Applied in order; `id` guards an index against drift. */
export type TranscriptOp =
  /** New item at the end. */
  | { op: 'append'; item: TranscriptItem }
  /** The item at `index` replaced (tool call status, plan, a non-text chunk...). */
  | { op: 'replace'; index: number; id: string; item: TranscriptItem }
  /** Streaming: `text` appended to the text block `contentIndex` of the message-like item at `index`. */
  | { op: 'appendText'; index: number; id: string; contentIndex: number; text: string }
  /** The item at `index` removed (plan_removed). */
  | { op: 'remove'; index: number; id: string }
  /** `ops` applied to the transcript of the subagent item at `index` (a child session's own changes). */
  | { op: 'nest'; index: number; id: string; ops: TranscriptOp[] }
  /** Transcript-level fields set (`meta`) or removed (`cleared`). */
  | { op: 'meta'; meta: Partial<TranscriptMeta>; cleared?: (keyof TranscriptMeta)[] };

function isMessageLike(item: TranscriptItem): item is Extract<TranscriptItem, { kind: 'user_message' | 'agent_message' | 'thought' }> {
  return item.kind === 'user_message' || item.kind === 'agent_message' || item.kind === 'thought';
}

function drift(op: { index: number }): Error {
  return new Error(`transcript drift at ${op.index}`);
}

/**
 * The webview's reducer. Copies only what changes (the items array once, each changed item), so unchanged
 * items keep their identity and keyed, memoised rendering skips them. Throws on drift; the webview then
 * asks for a snapshot.
 */
export function applyTranscriptOps(t: Transcript, ops: readonly TranscriptOp[]): Transcript {
  let items = t.items;
  let copied = false;
  const own = (): TranscriptItem[] => {
    if (!copied) {
      items = items.slice();
      copied = true;
    }
    return items;
  };
  let meta: Record<string, unknown> | undefined;
  for (const op of ops) {
    switch (op.op) {
      case 'append':
        own().push(op.item);
        break;
      case 'replace':
        if (items[op.index]?.id !== op.id) throw drift(op);
        own()[op.index] = op.item;
        break;
      case 'remove':
        if (items[op.index]?.id !== op.id) throw drift(op);
        own().splice(op.index, 1);
        break;
      case 'appendText': {
        const item = items[op.index];
        if (!item || item.id !== op.id || !isMessageLike(item)) throw drift(op);
        const content = item.content.slice();
        const block = content[op.contentIndex];
        if (block === undefined) content[op.contentIndex] = { type: 'text', text: op.text };
        else if (block.type === 'text') content[op.contentIndex] = { type: 'text', text: block.text + op.text } satisfies TranscriptContent;
        else throw new Error('appendText to a non-text block');
        own()[op.index] = { ...item, content };
        break;
      }
      case 'nest': {
        const item = items[op.index];
        if (!item || item.id !== op.id || item.kind !== 'subagent') throw drift(op);
        own()[op.index] = { ...item, transcript: applyTranscriptOps(item.transcript, op.ops) };
        break;
      }
      case 'meta':
        meta ??= {};
        Object.assign(meta, op.meta);
        for (const k of op.cleared ?? []) meta[k] = undefined;
        break;
    }
  }
  if (!meta) return copied ? { ...t, items } : t;
  const next: Record<string, unknown> = { ...t, ...meta, items };
  for (const [k, v] of Object.entries(meta)) if (v === undefined) delete next[k];
  return next as unknown as Transcript;
}
