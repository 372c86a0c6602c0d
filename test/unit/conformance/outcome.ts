// What a replayed turn leaves, in a form two orderings of the same turn can be compared by: the tool-call
// cards (one per id), the messages, the permission cards and the files, with the run's name and folder
// taken out of every path and title.
import { toolCallFromRequest } from '../../../src/acp';
import type { Transcript, TranscriptItem } from '../../../src/shared/transcript';

type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

export interface Outcome {
  /** Each tool call's card without its item id, by tool call id. */
  cards: Record<string, Omit<ToolCallItem, 'id'>>;
  /** Tool call ids shown by more than one card. */
  duplicated: string[];
  /** The text of each message and thought, in order. */
  messages: string[];
  /** What each permission card showed, by tool call id. */
  permissions: Record<string, unknown>;
  /** The files the turn left in its folder, with their text. */
  files: Record<string, string>;
  /** The changed-files list, where there is one (the host). */
  changedFiles?: unknown[];
}

export interface Run {
  transcript: Transcript;
  /** Each permission card as [its tool call id, what it showed]. */
  permissions: Array<[string, unknown]>;
  files: Record<string, string>;
  changedFiles?: unknown[];
  /** The ids of the terminals the client created in this run, in order. */
  terminalIds: string[];
}

function textOf(item: TranscriptItem): string | undefined {
  if (item.kind !== 'agent_message' && item.kind !== 'thought') return undefined;
  return `${item.kind}: ${item.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('')}`;
}

/** A permission request as its card shows it: its tool call read as a card, and its options. */
export function permissionCard(request: unknown): [string, unknown] {
  const r = request as { toolCall: unknown; options: Array<{ name: string; kind: string }> };
  const { id: _id, ...card } = toolCallFromRequest(r.toolCall)!;
  return [card.toolCallId, { card, options: r.options.map((o) => `${o.kind}: ${o.name}`) }];
}

/** `names`: the run's name and the session's folder; they and the run's terminal ids are replaced by placeholders. */
export function outcomeOf(run: Run, names: { run: string; cwd: string }): Outcome {
  const cards: Outcome['cards'] = {};
  const duplicated: string[] = [];
  for (const item of run.transcript.items) {
    if (item.kind !== 'tool_call') continue;
    if (cards[item.toolCallId]) duplicated.push(item.toolCallId);
    const { id: _id, ...card } = item;
    cards[item.toolCallId] = card;
  }
  const outcome: Outcome = {
    cards,
    duplicated,
    messages: run.transcript.items.map(textOf).filter((t): t is string => t !== undefined),
    permissions: Object.fromEntries(run.permissions),
    files: run.files,
  };
  if (run.changedFiles) outcome.changedFiles = run.changedFiles;
  let json = JSON.stringify(outcome).split(names.cwd).join('<cwd>').split(names.run).join('<run>');
  run.terminalIds.forEach((id, n) => (json = json.split(JSON.stringify(id)).join(JSON.stringify(`<terminal ${n}>`))));
  return JSON.parse(json) as Outcome;
}

/** A tool call's status may only move forward: pending, in progress, then completed or failed. */
export const STATUS_RANK: Record<ToolCallItem['status'], number> = { pending: 0, in_progress: 1, completed: 2, failed: 2 };
