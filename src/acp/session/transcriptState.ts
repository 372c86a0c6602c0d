// The session reducer: a Transcript plus indexes (tool call id, message id, plan id...) so each update
// costs O(1) instead of a scan. Every change it makes is also returned as ops (src/shared/transcriptOps.ts):
// the webview applies the same ops to its copy, so no one works a change out of two transcripts again.
// Items are never mutated, only replaced; the items array and the Transcript object change in place.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import {
  emptyTranscript,
  type StopReason,
  type SubagentItem,
  type Transcript,
  type TranscriptContent,
  type TranscriptItem,
  type TurnUsage,
} from '../../shared/transcript';
import type { TranscriptMeta, TranscriptOp } from '../../shared/transcriptOps';
import { parseContentBlock } from '../schema/content';
import { mergeRateLimits, rateLimitsOf } from '../schema/rateLimits';
import type { SessionUpdate } from '../schema/sessionUpdate';
import type { LoadSessionResult, SetConfigOptionResult } from '../schema/agentResponses';
import { appendContent } from './contentMerge';
import { patchSubagent, snapshotSubagent, unannouncedSubagent } from './subagentItems';
import { SubagentNests, sessionMessageItem } from './subagentNests';
import { announceAgain, fieldsOf, mergeToolCall, newToolCall, type ToolCallItem } from './toolCalls';

type ItemOf<K extends TranscriptItem['kind']> = Extract<TranscriptItem, { kind: K }>;
type ChunkKind = 'user_message' | 'agent_message' | 'thought';

const CHUNK_KINDS: Record<string, ChunkKind> = {
  user_message_chunk: 'user_message',
  agent_message_chunk: 'agent_message',
  agent_thought_chunk: 'thought',
};

/** Kinds that count as the agent having answered (for the "empty end_turn" flag). */
const AGENT_CONTENT: ReadonlySet<string> = new Set(['agent_message', 'thought', 'tool_call', 'plan', 'subagent', 'session_message']);

const NO_OPS: TranscriptOp[] = [];

export class TranscriptState {
  readonly transcript: Transcript;
  private seq = 0;
  private readonly index = new Map<string, number>();
  /** Per tool call, the fields its updates set: a late or repeated `tool_call` leaves those alone. */
  private readonly updatedFields = new Map<string, number>();
  /** Where the last chunk with a messageId went (positions change only on reindex). */
  private lastChunk: { kind: ChunkKind; messageId: string; at: number } | undefined;
  /** The child sessions nested here (subagents), each with the reducer of its own transcript. */
  private readonly nests = new SubagentNests({
    itemAt: (at) => this.transcript.items[at],
    indexOf: (key) => this.index.get(key),
    push: (key, item) => this.push(key, item),
    replace: (at, item) => this.replace(at, item),
    nextId: () => this.nextId(),
  });

  /** `idPrefix`: a nested child's items get ids of their own (`<its item id>.i1`), unique in the whole chat. */
  constructor(
    initial: Transcript | string,
    private readonly idPrefix = '',
  ) {
    this.transcript = typeof initial === 'string' ? emptyTranscript(initial) : initial;
    this.reindex();
  }

  /** Applies one update; returns the ops it applied (none: nothing changed). */
  apply(update: SessionUpdate): TranscriptOp[] {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
        return this.appendChunk(CHUNK_KINDS[update.sessionUpdate], update.content, update.messageId);
      case 'tool_call':
      case 'tool_call_update': {
        const id = update.toolCallId;
        const at = this.index.get(`tool:${id}`);
        const announced = update.sessionUpdate === 'tool_call';
        const fromUpdates = this.updatedFields.get(id) ?? 0;
        if (!announced) {
          const fields = fromUpdates | fieldsOf(update);
          if (fields !== fromUpdates) this.updatedFields.set(id, fields);
        }
        // Agents send an update before its tool_call (Cline) or none at all: the update makes the card.
        if (at === undefined) return this.push(`tool:${id}`, newToolCall(this.nextId(), update));
        const previous = this.transcript.items[at] as ToolCallItem;
        return this.replace(at, announced ? announceAgain(previous, update, fromUpdates) : mergeToolCall(previous, update));
      }
      case 'plan':
        return this.upsertWith('plan:', (id) => ({ kind: 'plan', id, entries: update.entries }));
      case 'plan_update': {
        const plan = update.plan;
        return this.upsertWith(`plan:${plan.planId}`, (id): ItemOf<'plan'> => {
          if (plan.type === 'items') return { kind: 'plan', id, planId: plan.planId, entries: plan.entries };
          if (plan.type === 'file') return { kind: 'plan', id, planId: plan.planId, entries: [], fileUri: plan.uri };
          return { kind: 'plan', id, planId: plan.planId, entries: [], markdown: plan.content };
        });
      }
      case 'plan_removed':
        return this.remove(`plan:${update.planId}`);
      case 'available_commands_update':
        return this.setMeta({ commands: update.availableCommands });
      case 'current_mode_update':
        return this.setMode(update.currentModeId);
      case 'config_option_update':
        return this.setMeta({ configOptions: update.configOptions });
      case 'session_info_update': {
        const meta: Partial<TranscriptMeta> = {};
        const cleared: (keyof TranscriptMeta)[] = [];
        if (update.title === null) cleared.push('title');
        else if (update.title !== undefined) meta.title = update.title;
        if (update.updatedAt === null) cleared.push('updatedAt');
        else if (update.updatedAt !== undefined) meta.updatedAt = update.updatedAt;
        return this.setMeta(meta, cleared);
      }
      case 'usage_update': {
        const meta: Partial<TranscriptMeta> = { usage: update.cost ? { used: update.used, size: update.size, cost: update.cost } : { used: update.used, size: update.size } };
        const windows = rateLimitsOf(update._meta);
        if (windows) meta.rateLimits = mergeRateLimits(this.transcript.rateLimits, windows);
        return this.setMeta(meta);
      }
      case 'notice': {
        const notice: ItemOf<'notice'> = { kind: 'notice', id: this.nextId(), severity: update.severity, title: update.title };
        if (update.description !== undefined) notice.description = update.description;
        return this.push(undefined, notice);
      }
      case 'compaction_update':
        return this.upsertWith(`compaction:${update.compactionId}`, (id, previous?: ItemOf<'compaction'>) => {
          const item: ItemOf<'compaction'> = {
            kind: 'compaction',
            id,
            compactionId: update.compactionId,
            status: update.status,
            summary: update.summary === null ? [] : (update.summary ?? previous?.summary ?? []),
          };
          const error = update.error === null ? undefined : (update.error ?? previous?.error);
          if (error !== undefined) item.error = error;
          return item;
        });
      case 'compaction_summary_chunk':
        return this.upsertWith(`compaction:${update.compactionId}`, (id, previous?: ItemOf<'compaction'>) => ({
          ...(previous ?? { kind: 'compaction' as const, compactionId: update.compactionId, status: 'in_progress' }),
          id,
          summary: appendContent(previous?.summary ?? [], update.content),
        }));
      case 'subagent_update':
        return this.upsertWith(`subagent:${update.sessionId}`, (id, previous?: SubagentItem) =>
          patchSubagent(previous ?? unannouncedSubagent(id, update.sessionId), update),
        );
      case 'session_message':
        // A message to or from a child nested here is shown in that child's nest.
        return this.nests.message(update) ?? this.upsertWith(`session_message:${update.messageId}`, (id, previous?: ItemOf<'session_message'>) => sessionMessageItem(id, update, previous));
      case 'session_message_chunk':
        return (
          this.nests.messageChunk(update) ??
          this.upsertWith(`session_message:${update.messageId}`, (id, previous?: ItemOf<'session_message'>) => ({
            ...(previous ?? { kind: 'session_message' as const, messageId: update.messageId }),
            id,
            content: appendContent(previous?.content ?? [], update.content),
          }))
        );
      case '$unsupported':
        return this.push(undefined, { kind: 'unsupported', id: this.nextId(), updateType: update.updateType, raw: update.raw });
    }
  }

  /**
   * An update of a child session nested in this one: `path` lists the child session ids from this
   * session's child down to the one the update is for. A child never announced gets a nest all the same.
   */
  applyNested(path: readonly string[], update: SessionUpdate): TranscriptOp[] {
    if (path.length === 0) return this.apply(update);
    const [child, ...rest] = path;
    return this.nests.applyNested(child, rest, update);
  }

  /** The child session ids nested here, at any depth. */
  nestedSessions(): string[] {
    return this.nests.sessions();
  }

  /** The nest of a child session (at any depth), or undefined. */
  nestOf(sessionId: string): SubagentItem | undefined {
    return this.nests.nestOf(sessionId);
  }

  /** The user's own prompt, recorded live the way a session/load replay would show it. */
  recordUserPrompt(prompt: ReadonlyArray<ContentBlock>): TranscriptOp[] {
    const ops: TranscriptOp[] = [];
    for (const block of prompt) ops.push(...this.appendChunk('user_message', parseContentBlock(block), undefined));
    return ops;
  }

  /** A message steered into the running turn: one marked item. */
  recordSteeredPrompt(prompt: ReadonlyArray<ContentBlock>): TranscriptOp[] {
    return this.push(undefined, { kind: 'user_message', id: this.nextId(), content: prompt.map((b) => parseContentBlock(b)), steered: true });
  }

  /** The end of a prompt turn; an end_turn after no agent content is flagged `empty`. */
  recordTurnEnd(stopReason: StopReason, usage?: TurnUsage): TranscriptOp[] {
    const empty = stopReason === 'end_turn' && !this.turnHasAgentContent();
    const ops = this.endUnfinishedToolCalls(stopReason);
    const item: ItemOf<'turn_end'> = { kind: 'turn_end', id: this.nextId(), stopReason, empty };
    if (usage) item.usage = usage;
    ops.push(...this.push(undefined, item));
    return ops;
  }

  /**
   * A turn that ended without the agent's answer (it failed, or the agent crashed): its tool calls left
   * pending or in progress are marked `unfinished` ('error'). After a turn end there are none left.
   */
  recordTurnStopped(): TranscriptOp[] {
    return this.endUnfinishedToolCalls('error');
  }

  /**
   * The agent finished replaying a session (session/load): it runs no turn, so no replayed tool call is
   * running; those it left pending or in progress are marked `unfinished`.
   */
  recordReplayEnd(): TranscriptOp[] {
    return this.endUnfinishedToolCalls('end_turn', true);
  }

  /** The tool calls the agent left pending or in progress are marked `unfinished`: the current turn's, or `all`. */
  private endUnfinishedToolCalls(stopReason: StopReason, all = false): TranscriptOp[] {
    const ops: TranscriptOp[] = [];
    const items = this.transcript.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (!all && ((item.kind === 'user_message' && !item.steered) || item.kind === 'turn_end')) break;
      if (item.kind === 'tool_call' && (item.status === 'pending' || item.status === 'in_progress') && item.unfinished === undefined) {
        ops.push(...this.replace(i, { ...item, unfinished: stopReason }));
      }
    }
    return ops.reverse();
  }

  recordError(message: string, detail?: string): TranscriptOp[] {
    const item: ItemOf<'error'> = { kind: 'error', id: this.nextId(), message };
    if (detail !== undefined) item.detail = detail;
    return this.push(undefined, item);
  }

  /** Modes, config options and legacy models from session/new|load|resume results. */
  applySessionSetup(setup: LoadSessionResult): TranscriptOp[] {
    const meta: Partial<TranscriptMeta> = {};
    if (setup.modes) meta.modes = setup.modes;
    if (setup.configOptions) meta.configOptions = setup.configOptions;
    if (setup.models) meta.models = setup.models;
    return this.setMeta(meta);
  }

  /** The current mode (after session/set_mode succeeded, or the agent's current_mode_update). */
  /** A title the user chose (a rename). */
  setTitle(title: string): TranscriptOp[] {
    return this.setMeta({ title });
  }

  setMode(modeId: string): TranscriptOp[] {
    return this.setMeta({ modes: { currentModeId: modeId, availableModes: this.transcript.modes?.availableModes ?? [] } });
  }

  /** After a successful legacy session/set_model. */
  setCurrentModel(modelId: string): TranscriptOp[] {
    return this.setMeta({ models: { currentModelId: modelId, availableModels: this.transcript.models?.availableModels ?? [] } });
  }

  /** After session/set_config_option: the agent answers with every option's current value. */
  setConfigOptions(result: SetConfigOptionResult): TranscriptOp[] {
    return result.configOptions ? this.setMeta({ configOptions: result.configOptions }) : NO_OPS;
  }

  private setMeta(meta: Partial<TranscriptMeta>, cleared: (keyof TranscriptMeta)[] = []): TranscriptOp[] {
    if (Object.keys(meta).length === 0 && cleared.length === 0) return NO_OPS;
    Object.assign(this.transcript, meta);
    const t = this.transcript as unknown as Record<string, unknown>;
    for (const k of cleared) delete t[k];
    return [cleared.length > 0 ? { op: 'meta', meta, cleared } : { op: 'meta', meta }];
  }

  private appendChunk(kind: ChunkKind, content: TranscriptContent, messageId: string | undefined): TranscriptOp[] {
    const items = this.transcript.items;
    let at: number | undefined;
    const cached = this.lastChunk;
    if (messageId !== undefined && cached !== undefined && cached.kind === kind && cached.messageId === messageId) {
      // The common case, a message streaming chunk after chunk: no key building or lookup.
      at = cached.at;
    } else if (messageId !== undefined) {
      at = this.index.get(`${kind}:${messageId}`);
      if (at !== undefined) this.lastChunk = { kind, messageId, at };
    } else {
      // No id: a consecutive run of the same kind is one message.
      const last = items[items.length - 1];
      if (last !== undefined && last.kind === kind && last.messageId === undefined && !('steered' in last)) at = items.length - 1;
    }
    if (at === undefined) {
      if (messageId === undefined) return this.push(undefined, { kind, id: this.nextId(), content: [content] });
      this.lastChunk = { kind, messageId, at: items.length };
      return this.push(`${kind}:${messageId}`, { kind, id: this.nextId(), content: [content], messageId });
    }
    const previous = items[at] as ItemOf<ChunkKind>;
    const blocks = previous.content;
    const lastIndex = blocks.length - 1;
    const last = blocks[lastIndex];
    const joinsText = content.type === 'text' && last !== undefined && last.type === 'text';
    const merged = appendContent(blocks, content);
    // Literals with every key up front (no property added later): one hidden class per shape.
    const prevId = previous.messageId;
    items[at] = prevId === undefined ? { kind, id: previous.id, content: merged } : { kind, id: previous.id, content: merged, messageId: prevId };
    if (joinsText) return [{ op: 'appendText', index: at, id: previous.id, contentIndex: lastIndex, text: content.text }];
    return [{ op: 'replace', index: at, id: previous.id, item: items[at] }];
  }

  private turnHasAgentContent(): boolean {
    const items = this.transcript.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      const kind = item.kind;
      if ((kind === 'user_message' && !item.steered) || kind === 'turn_end') return false;
      if (AGENT_CONTENT.has(kind)) return true;
    }
    return false;
  }

  private upsertWith<T extends TranscriptItem>(key: string, build: (id: string, previous?: T) => T): TranscriptOp[] {
    const at = this.index.get(key);
    if (at === undefined) return this.push(key, build(this.nextId()));
    const previous = this.transcript.items[at] as T;
    return this.replace(at, build(previous.id, previous));
  }

  private push(key: string | undefined, item: TranscriptItem): TranscriptOp[] {
    if (key !== undefined) this.index.set(key, this.transcript.items.length);
    this.transcript.items.push(this.adopt(item));
    return [{ op: 'append', item: item.kind === 'subagent' ? snapshotSubagent(item) : item }];
  }

  private replace(at: number, item: TranscriptItem): TranscriptOp[] {
    this.transcript.items[at] = this.adopt(item);
    return [{ op: 'replace', index: at, id: item.id, item: item.kind === 'subagent' ? snapshotSubagent(item) : item }];
  }

  /** A subagent item's transcript is its child reducer's (made here for a new child): it changes in place. */
  private adopt(item: TranscriptItem): TranscriptItem {
    if (item.kind !== 'subagent') return item;
    const nest = this.nests.reducerOf(item.sessionId);
    if (nest?.transcript === item.transcript) return item;
    const state = new TranscriptState(item.transcript ?? emptyTranscript(item.sessionId), `${item.id}.`);
    this.nests.keep(item.sessionId, state);
    return item.transcript === state.transcript ? item : { ...item, transcript: state.transcript };
  }

  private remove(key: string): TranscriptOp[] {
    const at = this.index.get(key);
    if (at === undefined) return NO_OPS;
    const [item] = this.transcript.items.splice(at, 1);
    this.reindex();
    return [{ op: 'remove', index: at, id: item.id }];
  }

  private nextId(): string {
    return `${this.idPrefix}i${++this.seq}`;
  }

  private reindex(): void {
    this.index.clear();
    this.lastChunk = undefined;
    const items = this.transcript.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.kind === 'subagent') items[i] = this.adopt(item);
      const key = keyOf(item);
      if (key !== undefined) this.index.set(key, i);
      const n = item.id.startsWith(this.idPrefix) ? /^i(\d+)$/.exec(item.id.slice(this.idPrefix.length)) : null;
      if (n) this.seq = Math.max(this.seq, Number(n[1]));
    }
  }
}

function keyOf(item: TranscriptItem): string | undefined {
  switch (item.kind) {
    case 'tool_call':
      return `tool:${item.toolCallId}`;
    case 'user_message':
    case 'agent_message':
    case 'thought':
      return item.messageId !== undefined ? `${item.kind}:${item.messageId}` : undefined;
    case 'plan':
      return `plan:${item.planId ?? ''}`;
    case 'compaction':
      return `compaction:${item.compactionId}`;
    case 'subagent':
      return `subagent:${item.sessionId}`;
    default:
      return undefined;
  }
}

