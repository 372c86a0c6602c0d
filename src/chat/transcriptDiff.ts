// Turns "the transcript changed" into the smallest TranscriptOp list for the webview: streamed chunks
// become `appendText` ops (only the new characters travel), new items `append`, changed items `replace`.
// Pure: no `vscode` import. One differ per session mirrors what the webview currently holds.

import type { TranscriptMeta, TranscriptOp } from '../shared/messages';
import type { Transcript, TranscriptContent, TranscriptItem } from '../shared/transcript';

interface ShadowBlock {
  ref: TranscriptContent;
  type: string;
  /** Text blocks: length sent so far and its last characters (append-only check). */
  len?: number;
  tail?: string;
}

interface ShadowItem {
  id: string;
  kind: string;
  ref: TranscriptItem;
  /** Message-like items: per content block. */
  blocks?: ShadowBlock[];
  /** Other items: JSON of what was sent. */
  json?: string;
}

const META_KEYS: (keyof TranscriptMeta)[] = ['title', 'updatedAt', 'commands', 'modes', 'configOptions', 'models', 'usage'];
const TAIL = 24;
/** Items at the end that are compared even without a hint (catches in-place mutation of the live turn). */
const HOT_TAIL = 8;

function isMessageLike(item: TranscriptItem): item is Extract<TranscriptItem, { content: TranscriptContent[] }> & {
  kind: 'user_message' | 'agent_message' | 'thought';
} {
  return item.kind === 'user_message' || item.kind === 'agent_message' || item.kind === 'thought';
}

function shadowBlocks(content: TranscriptContent[]): ShadowBlock[] {
  return content.map((c) =>
    c.type === 'text' ? { ref: c, type: 'text', len: c.text.length, tail: c.text.slice(-TAIL) } : { ref: c, type: c.type },
  );
}

function shadowOf(item: TranscriptItem): ShadowItem {
  if (isMessageLike(item)) return { id: item.id, kind: item.kind, ref: item, blocks: shadowBlocks(item.content) };
  return { id: item.id, kind: item.kind, ref: item, json: JSON.stringify(item) };
}

export class TranscriptDiffer {
  private items: ShadowItem[] = [];
  private meta = new Map<keyof TranscriptMeta, string | undefined>();

  /** Record that the webview now holds exactly `t` (after init / transcriptReset). */
  reset(t: Transcript): void {
    this.items = t.items.map(shadowOf);
    this.meta.clear();
    for (const k of META_KEYS) this.meta.set(k, t[k] === undefined ? undefined : JSON.stringify(t[k]));
  }

  /**
   * Ops that bring the webview from the recorded state to `t`, recording `t`. Returns 'reset' when the
   * change cannot be expressed as ops (items reordered or replaced by others); the caller then sends
   * the whole transcript and calls reset().
   */
  diff(t: Transcript, changedIds?: ReadonlySet<string>): TranscriptOp[] | 'reset' {
    const ops: TranscriptOp[] = [];
    const items = t.items;
    const old = this.items;
    if (items.length < old.length) {
      // Truncation is allowed only if the kept prefix is the same items.
      for (let i = 0; i < items.length; i++) if (items[i].id !== old[i].id) return 'reset';
      ops.push({ op: 'truncate', length: items.length });
      old.length = items.length;
    }
    const hotFrom = Math.max(0, old.length - HOT_TAIL);
    for (let i = 0; i < old.length; i++) {
      const item = items[i];
      const sh = old[i];
      if (item.id !== sh.id) return 'reset';
      if (item === sh.ref && i < hotFrom && !changedIds?.has(item.id)) continue;
      const itemOps = this.diffItem(i, item, sh);
      if (itemOps === 'replace') {
        ops.push({ op: 'replace', index: i, id: item.id, item });
        old[i] = shadowOf(item);
      } else {
        for (const op of itemOps) ops.push(op);
      }
    }
    for (let i = old.length; i < items.length; i++) {
      ops.push({ op: 'append', item: items[i] });
      old.push(shadowOf(items[i]));
    }
    const meta: Partial<TranscriptMeta> = {};
    const cleared: (keyof TranscriptMeta)[] = [];
    let metaChanged = false;
    for (const k of META_KEYS) {
      const v = t[k];
      const json = v === undefined ? undefined : JSON.stringify(v);
      if (json !== this.meta.get(k)) {
        this.meta.set(k, json);
        metaChanged = true;
        if (v === undefined) cleared.push(k);
        else (meta as Record<string, unknown>)[k] = v;
      }
    }
    if (metaChanged) ops.push(cleared.length ? { op: 'meta', meta, cleared } : { op: 'meta', meta });
    return ops;
  }

  private diffItem(index: number, item: TranscriptItem, sh: ShadowItem): TranscriptOp[] | 'replace' {
    if (item.kind !== sh.kind) return 'replace';
    if (!isMessageLike(item) || !sh.blocks) {
      const json = JSON.stringify(item);
      sh.ref = item;
      if (json === sh.json) return [];
      return 'replace';
    }
    const blocks = sh.blocks;
    const content = item.content;
    if (content.length < blocks.length) return 'replace';
    const ops: TranscriptOp[] = [];
    for (let j = 0; j < content.length; j++) {
      const c = content[j];
      const b = blocks[j];
      if (!b) {
        if (c.type !== 'text') return 'replace';
        ops.push({ op: 'appendText', index, id: item.id, contentIndex: j, text: c.text });
        continue;
      }
      if (c.type !== b.type) return 'replace';
      if (c.type === 'text') {
        const len = b.len ?? 0;
        if (c.text.length < len) return 'replace';
        if (c.text.slice(Math.max(0, len - TAIL), len) !== b.tail) return 'replace';
        if (c.text.length > len) ops.push({ op: 'appendText', index, id: item.id, contentIndex: j, text: c.text.slice(len) });
      } else if (c !== b.ref && JSON.stringify(c) !== JSON.stringify(b.ref)) {
        return 'replace';
      }
    }
    sh.ref = item;
    sh.blocks = shadowBlocks(content);
    return ops;
  }
}
