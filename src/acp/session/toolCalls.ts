// Tool-call merging with the spec's semantics: a tool_call_update replaces each field it
// carries (`content` and `locations` are replaced whole, not appended) and leaves the rest.
import { MAX_TOOL_OUTPUT, type ToolCallStatus, type ToolKind, type ToolOutput, type TranscriptItem } from '../../shared/transcript';
import { isRecord } from '../schema/lenient';
import { joinText } from './contentMerge';
import { parseSessionUpdate, type KnownSessionUpdate } from '../schema/sessionUpdate';

export type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;
type ToolCallUpdate = Extract<KnownSessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>;

const TOOL_KINDS: ReadonlySet<string> = new Set<ToolKind>([
  'read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other',
]);
const STATUSES: ReadonlySet<string> = new Set<ToolCallStatus>(['pending', 'in_progress', 'completed', 'failed']);

export function newToolCall(id: string, update: ToolCallUpdate): ToolCallItem {
  const item: ToolCallItem = {
    kind: 'tool_call',
    id,
    toolCallId: update.toolCallId,
    title: update.title ?? '',
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
  };
  return mergeToolCall(item, update);
}

/** How far a tool call has got: a repeated or late `tool_call` never takes its status back. */
const STATUS_RANK: Record<ToolCallStatus, number> = { pending: 0, in_progress: 1, completed: 2, failed: 2 };

/** One bit per field an update can set: the reducer remembers which ones updates set at the cost of a number. */
const FIELD_BITS = { title: 1, name: 2, kind: 4, status: 8, content: 16, locations: 32, rawInput: 64, rawOutput: 128, _meta: 256 } as const;
type ToolCallField = keyof typeof FIELD_BITS;

/** The fields an update carries, as FIELD_BITS (plain checks: this runs for every tool_call_update). */
export function fieldsOf(update: ToolCallUpdate): number {
  let bits = 0;
  if (update.title !== undefined) bits |= FIELD_BITS.title;
  if (update.name !== undefined) bits |= FIELD_BITS.name;
  if (update.kind !== undefined) bits |= FIELD_BITS.kind;
  if (update.status !== undefined) bits |= FIELD_BITS.status;
  if (update.content !== undefined) bits |= FIELD_BITS.content;
  if (update.locations !== undefined) bits |= FIELD_BITS.locations;
  if (update.rawInput !== undefined) bits |= FIELD_BITS.rawInput;
  if (update.rawOutput !== undefined) bits |= FIELD_BITS.rawOutput;
  if (update._meta !== undefined) bits |= FIELD_BITS._meta;
  return bits;
}

/**
 * A `tool_call` for a card that already exists. Real agents repeat the announcement (the older Claude
 * adapter sends it twice, the second time with the whole input) or send it late, after updates that moved
 * the card on (Cline: `pending` after `in_progress`). It refines what earlier announcements said, never
 * what an update said (`fromUpdates`, as FIELD_BITS); its status only moves forward, and an empty title
 * or list never blanks what the card shows.
 */
export function announceAgain(previous: ToolCallItem, update: ToolCallUpdate, fromUpdates: number): ToolCallItem {
  const fill: ToolCallUpdate = { sessionUpdate: 'tool_call_update', toolCallId: update.toolCallId, locations: undefined };
  const takes = (field: ToolCallField): boolean => update[field] !== undefined && (fromUpdates & FIELD_BITS[field]) === 0;
  if (takes('title') && update.title !== '') fill.title = update.title;
  if (takes('name')) fill.name = update.name;
  if (takes('kind')) fill.kind = update.kind;
  if (takes('content') && update.content!.length > 0) fill.content = update.content;
  if (takes('locations') && update.locations!.length > 0) fill.locations = update.locations;
  if (takes('rawInput')) fill.rawInput = update.rawInput;
  if (takes('rawOutput')) fill.rawOutput = update.rawOutput;
  if (takes('_meta')) fill._meta = update._meta;
  const status = update.status;
  if (status !== undefined && STATUSES.has(status) && STATUS_RANK[status as ToolCallStatus] > STATUS_RANK[previous.status]) fill.status = status;
  return mergeToolCall(previous, fill);
}

/** Returns a new item: items are never mutated, so a renderer can compare by reference. */
export function mergeToolCall(previous: ToolCallItem, update: ToolCallUpdate): ToolCallItem {
  const next: ToolCallItem = { ...previous };
  if (update.title !== undefined) next.title = update.title;
  if (update.name !== undefined) next.toolName = update.name;
  if (update.kind !== undefined) {
    if (TOOL_KINDS.has(update.kind)) {
      next.toolKind = update.kind as ToolKind;
      // `delete` would turn every item into a slow dictionary-mode object: only when needed.
      if (next.rawKind !== undefined) delete next.rawKind;
    } else {
      // Shown as "other", with what the agent called it.
      next.toolKind = 'other';
      next.rawKind = update.kind;
    }
  }
  if (update.status !== undefined && STATUSES.has(update.status)) {
    next.status = update.status as ToolCallStatus;
    // A result that comes after the turn ended is shown as it is.
    if (next.unfinished !== undefined && (next.status === 'completed' || next.status === 'failed')) delete next.unfinished;
  }
  if (update.content !== undefined) next.content = update.content;
  if (update.locations !== undefined) next.locations = update.locations;
  if (update.rawInput !== undefined) next.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) next.rawOutput = update.rawOutput;
  const output = mergeOutput(next, update);
  if (output) next.output = output;
  return next;
}

/**
 * The output of a command the agent ran itself: `_meta.terminal_output.data` chunks are appended and
 * `_meta.terminal_exit` gives the exit code (Claude and Codex, when the client advertises
 * `_meta.terminal_output`); an execute tool's `rawOutput` with text (Codex: `formatted_output`,
 * `aggregated_output`, `stdout`/`stderr`) is its whole output and replaces what was streamed.
 */
function mergeOutput(item: ToolCallItem, update: ToolCallUpdate): ToolOutput | undefined {
  const meta = isRecord(update._meta) ? update._meta : undefined;
  const streamed = isRecord(meta?.terminal_output) && typeof meta.terminal_output.data === 'string' ? meta.terminal_output.data : undefined;
  const exit = isRecord(meta?.terminal_exit) ? meta.terminal_exit : undefined;
  const whole = item.toolKind === 'execute' && update.rawOutput !== undefined ? rawOutputText(update.rawOutput) : undefined;
  if (streamed === undefined && exit === undefined && whole === undefined) return undefined;
  let output: ToolOutput = item.output ?? { text: '', truncated: false };
  if (whole !== undefined) output = bounded(whole, false);
  else if (streamed !== undefined) output = bounded(joinText(output.text, streamed), output.truncated);
  const exitCode = exitCodeOf(exit?.exit_code) ?? (isRecord(update.rawOutput) ? exitCodeOf(update.rawOutput.exit_code) : undefined);
  if (exitCode !== undefined) output.exitCode = exitCode;
  else if (item.output?.exitCode !== undefined) output.exitCode = item.output.exitCode;
  return output;
}

function bounded(text: string, truncated: boolean): ToolOutput {
  return text.length > MAX_TOOL_OUTPUT ? { text: text.slice(-MAX_TOOL_OUTPUT), truncated: true } : { text, truncated };
}

/** The text a command printed, from the shapes agents put in an execute tool's rawOutput. */
function rawOutputText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (!isRecord(raw)) return undefined;
  for (const key of ['formatted_output', 'aggregated_output', 'output']) if (typeof raw[key] === 'string') return raw[key] as string;
  const stdout = typeof raw.stdout === 'string' ? raw.stdout : '';
  const stderr = typeof raw.stderr === 'string' ? raw.stderr : '';
  if (typeof raw.stdout !== 'string' && typeof raw.stderr !== 'string') return undefined;
  return stderr ? `${stdout}${stdout && !stdout.endsWith('\n') ? '\n' : ''}${stderr}` : stdout;
}

function exitCodeOf(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/**
 * The tool call a `session/request_permission` carries (a ToolCallUpdate), read the way a
 * `tool_call_update` is, so permission cards show the same content and locations as tool call cards.
 */
export function toolCallFromRequest(raw: unknown): ToolCallItem | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const update = parseSessionUpdate({ ...raw, sessionUpdate: 'tool_call_update' });
  return update.sessionUpdate === 'tool_call_update' ? newToolCall('permission', update) : undefined;
}
