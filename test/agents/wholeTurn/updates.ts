// Reading what a real agent sent in its turn: streamed text, one tool call's updates (or the call they add up
// to), Gemini's update sequence in short, and the items Codex sent back to the model.
import * as assert from 'assert';
import type { SessionUpdate } from '../../../src/acp';
import type { TurnClient } from '../turnClient';
import type { Json, ToolUpdate } from './row';

export function textOf(update: SessionUpdate): string {
  return 'content' in update && update.content && typeof update.content === 'object' && 'text' in update.content ? String(update.content.text) : '';
}

/** The tool_call_updates of one call, in order. */
export function updatesOf(c: TurnClient, id: string): ToolUpdate[] {
  return (c.updatesOf('tool_call_update') as unknown as ToolUpdate[]).filter((u) => u.toolCallId === id);
}

/**
 * The tool_call and its tool_call_updates for the (first) tool call of this kind, and the call as they leave it.
 * `updates: 'optional'` for a call the agent may never update (the caller checks how the chat shows that).
 */
export function toolCallOf(c: TurnClient, kind: string, updates: 'required' | 'optional' = 'required'): { start: Json; final: Json } {
  const all = c.updates.map((n) => n.update as unknown as Json);
  const start = all.find((u) => u.sessionUpdate === 'tool_call' && u.kind === kind);
  assert.ok(start, `a ${kind} tool_call\n${c.diagnostics()}`);
  const own = all.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === start.toolCallId);
  if (updates === 'required') assert.ok(own.length > 0, `a tool_call_update for ${String(start.toolCallId)}`);
  // Each update sets only its fields; Codex may send a last _meta-only update after the completing one.
  const final: Json = Object.assign({}, ...own.map((u) => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null))));
  return { start, final };
}

/** "kind" for chunks, "kind:tool:status" for tool calls (Gemini's ids are `<tool>__<tool>_<time>_<n>`), runs collapsed. */
export function geminiShape(updates: readonly SessionUpdate[]): string[] {
  const out: string[] = [];
  for (const u of updates) {
    if (u.sessionUpdate === 'available_commands_update') continue;
    const s = u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update' ? `${u.sessionUpdate}:${u.toolCallId.split('__')[0]}:${String(u.status)}` : u.sessionUpdate;
    if (out[out.length - 1] !== s) out.push(s);
  }
  return out;
}

/** The items of a Responses request's `input` of one type (what Codex sent back to the model). */
export function inputItems(body: unknown, type: string): Json[] {
  const input = (body as { input?: Json[] }).input ?? [];
  return input.filter((i) => i.type === type);
}
