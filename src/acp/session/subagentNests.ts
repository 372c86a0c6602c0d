// The nests of a transcript: per child session nested in it (a subagent), the reducer of the child's own
// transcript, and the routing of updates and messages between sessions into the right nest. A nest's
// changes leave as one `nest` op on the subagent item, wrapping the child reducer's own ops.
import type { SubagentItem, Transcript, TranscriptItem } from '../../shared/transcript';
import type { TranscriptOp } from '../../shared/transcriptOps';
import type { SessionUpdate } from '../schema/sessionUpdate';
import { unannouncedSubagent } from './subagentItems';

type SessionMessage = Extract<SessionUpdate, { sessionUpdate: 'session_message' }>;
type SessionMessageItem = Extract<TranscriptItem, { kind: 'session_message' }>;
type SessionMessageChunk = Extract<SessionUpdate, { sessionUpdate: 'session_message_chunk' }>;

/** A child session's reducer as its nest uses it (a TranscriptState of its own). */
export interface NestReducer {
  readonly transcript: Transcript;
  apply(update: SessionUpdate): TranscriptOp[];
  applyNested(path: readonly string[], update: SessionUpdate): TranscriptOp[];
  nestOf(sessionId: string): SubagentItem | undefined;
  nestedSessions(): string[];
}

/** What the nests need of the reducer they live in: its items by key, and its way to add or replace one. */
export interface NestParent {
  itemAt(at: number): TranscriptItem;
  indexOf(key: string): number | undefined;
  push(key: string, item: TranscriptItem): TranscriptOp[];
  replace(at: number, item: TranscriptItem): TranscriptOp[];
  nextId(): string;
}

export class SubagentNests {
  /** Per child session nested here, the reducer of its own transcript (the item's `transcript`). */
  private readonly reducers = new Map<string, NestReducer>();
  /** Messages between sessions that went into a child's nest, by messageId (their chunks follow them). */
  private readonly messages = new Map<string, string>();

  constructor(private readonly parent: NestParent) {}

  /** The reducer kept for a child session, if any. */
  reducerOf(sessionId: string): NestReducer | undefined {
    return this.reducers.get(sessionId);
  }

  /** The reducer of a child's transcript from now on (its subagent item was added or replaced). */
  keep(sessionId: string, reducer: NestReducer): void {
    this.reducers.set(sessionId, reducer);
  }

  /** An update for a child nested here (`rest`: the path further down); a child never announced gets a nest all the same. */
  applyNested(child: string, rest: readonly string[], update: SessionUpdate): TranscriptOp[] {
    return this.inNest(child, (nest) => nest.applyNested(rest, update));
  }

  /** A message to or from a child nested here, shown in that child's nest; undefined when it is no nest's. */
  message(update: SessionMessage): TranscriptOp[] | undefined {
    const child = [update.recipientSessionId, update.senderSessionId].find((s) => s != null && this.reducers.has(s));
    return child ? this.messageToNest(child, update) : undefined;
  }

  /** A chunk of a message that went into a nest, added there; undefined when its message is no nest's. */
  messageChunk(update: SessionMessageChunk): TranscriptOp[] | undefined {
    const child = this.messages.get(update.messageId);
    return child === undefined ? undefined : this.inNest(child, (nest) => nest.apply(update));
  }

  /** The child session ids nested here, at any depth. */
  sessions(): string[] {
    return [...this.reducers].flatMap(([id, nest]) => [id, ...nest.nestedSessions()]);
  }

  /** The nest of a child session (at any depth), or undefined. */
  nestOf(sessionId: string): SubagentItem | undefined {
    const at = this.parent.indexOf(`subagent:${sessionId}`);
    if (at !== undefined) return this.parent.itemAt(at) as SubagentItem;
    for (const nest of this.reducers.values()) {
      const found = nest.nestOf(sessionId);
      if (found) return found;
    }
    return undefined;
  }

  /** Runs `change` on the child's reducer (a nest made for it if none) and wraps its ops as `nest`. */
  private inNest(child: string, change: (nest: NestReducer) => TranscriptOp[]): TranscriptOp[] {
    const parent = this.parent;
    const key = `subagent:${child}`;
    const ops = parent.indexOf(key) !== undefined ? [] : parent.push(key, unannouncedSubagent(parent.nextId(), child));
    const at = parent.indexOf(key)!;
    const inner = change(this.reducers.get(child)!);
    if (inner.length > 0) ops.push({ op: 'nest', index: at, id: parent.itemAt(at).id, ops: inner });
    return ops;
  }

  /** A message to or from the child nested here; the first from this session names the call that started it. */
  private messageToNest(child: string, update: SessionMessage): TranscriptOp[] {
    this.messages.set(update.messageId, child);
    const ops: TranscriptOp[] = [];
    const at = this.parent.indexOf(`subagent:${child}`)!;
    const item = this.parent.itemAt(at) as SubagentItem;
    const fromHere = update.recipientSessionId === child && (update.senderSessionId == null || !this.reducers.has(update.senderSessionId));
    if (fromHere && item.toolCallId === undefined) ops.push(...this.parent.replace(at, { ...item, toolCallId: update.messageId }));
    ops.push(...this.inNest(child, (nest) => nest.apply(update)));
    return ops;
  }
}

/** A message between sessions shown where it arrived (no nest's): `update` over `previous`, `null` clears. */
export function sessionMessageItem(id: string, update: SessionMessage, previous?: SessionMessageItem): SessionMessageItem {
  const item: SessionMessageItem = {
    kind: 'session_message',
    id,
    messageId: update.messageId,
    content: update.content === null ? [] : (update.content ?? previous?.content ?? []),
  };
  const sender = update.senderSessionId === null ? undefined : (update.senderSessionId ?? previous?.senderSessionId);
  const recipient = update.recipientSessionId === null ? undefined : (update.recipientSessionId ?? previous?.recipientSessionId);
  if (sender !== undefined) item.senderSessionId = sender;
  if (recipient !== undefined) item.recipientSessionId = recipient;
  return item;
}
