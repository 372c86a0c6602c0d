// The recorded turns of real agents (test/fixtures/conformance/*.json), the same turns in the protocol's
// canonical order, and the orderings real agents send instead, as transforms of a turn's steps. Shared by
// the unit tier (connection + reducer) and the host tier (the real Session, permission cards, changed files).
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
export const REPLAY_AGENT = path.join(ROOT, 'test/fixtures/agents/replay-agent.mjs');
export const RECORDINGS_DIR = path.join(ROOT, 'test/fixtures/conformance');

type Json = Record<string, unknown>;

/** One step of a recorded turn (see replay-agent.mjs). */
export interface Step {
  update?: Json;
  request?: string;
  params?: Json;
  as?: string;
  wait?: boolean;
  await?: string;
  writeFile?: { path: string; text: string };
  stopReason?: string;
}

export interface Recording {
  /** The file's name without .json. */
  name: string;
  file: string;
  agent: string;
  quirks: string[];
  /** The files the turn finds (paths are templates). */
  files?: Record<string, string>;
  initialize: { agentCapabilities?: { loadSession?: boolean; promptCapabilities?: { image?: boolean }; _meta?: unknown }; agentInfo?: { name: string } };
  turn: Step[];
}

export function loadRecordings(): Recording[] {
  return fs
    .readdirSync(RECORDINGS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = path.join(RECORDINGS_DIR, f);
      const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<Recording, 'name' | 'file'>;
      return { ...json, name: f.slice(0, -'.json'.length), file, quirks: json.quirks ?? [] };
    });
}

const isToolCall = (s: Step): boolean => s.update?.sessionUpdate === 'tool_call';
const isToolUpdate = (s: Step): boolean => s.update?.sessionUpdate === 'tool_call_update';
const isPermission = (s: Step): boolean => s.request === 'session/request_permission';

/** The tool call a step is about: a tool_call(_update)'s id, or the tool call a permission request names. */
export function toolCallIdOf(step: Step): string | undefined {
  if (step.update && typeof step.update.toolCallId === 'string') return step.update.toolCallId;
  const call = step.params?.toolCall as Json | undefined;
  return isPermission(step) && typeof call?.toolCallId === 'string' ? call.toolCallId : undefined;
}

function ids(steps: readonly Step[]): string[] {
  return [...new Set(steps.filter(isToolCall).map((s) => toolCallIdOf(s)!))];
}

/**
 * The turn as the protocol means it: each tool call announced once (its announcements merged, the later
 * refining the earlier), before anything else about it (an update, a permission request).
 */
export function canonicalOrder(steps: readonly Step[]): Step[] {
  const merged = new Map<string, Json>();
  for (const s of steps.filter(isToolCall)) merged.set(toolCallIdOf(s)!, { ...merged.get(toolCallIdOf(s)!), ...s.update });
  const placed = new Set<string>();
  const out: Step[] = [];
  for (const step of steps) {
    const id = toolCallIdOf(step);
    if (id !== undefined && merged.has(id) && !placed.has(id)) {
      out.push({ update: merged.get(id) });
      placed.add(id);
    }
    if (!isToolCall(step)) out.push(step);
  }
  return out;
}

/** Moves every `tool_call` of `id` to just after the step `after` picks; none picked: unchanged. */
function moveToolCalls(steps: Step[], id: string, after: (s: Step) => boolean, change: (s: Step) => Step = (s) => s): Step[] {
  const calls = steps.filter((s) => isToolCall(s) && toolCallIdOf(s) === id);
  const rest = steps.filter((s) => !calls.includes(s));
  const at = rest.findIndex(after);
  if (at === -1) return steps;
  return [...rest.slice(0, at + 1), ...calls.map(change), ...rest.slice(at + 1)];
}

function eachToolCall(steps: readonly Step[], transform: (steps: Step[], id: string) => Step[]): Step[] {
  return ids(steps).reduce(transform, steps.slice());
}

const withoutStatus = (s: Step): Step => {
  const { status: _status, ...update } = s.update!;
  return { ...s, update };
};

/** The announcement as the model starts the tool: its first word for a title, an empty input. */
const stub = (s: Step): Step => ({
  update: {
    sessionUpdate: 'tool_call',
    toolCallId: s.update!.toolCallId,
    title: String(s.update!.title ?? '').split(' ')[0],
    kind: s.update!.kind,
    status: 'pending',
    ...(s.update!.rawInput !== undefined ? { rawInput: {} } : {}),
    content: [],
    locations: [],
  },
});

/** Each ordering real agents send, as a transform of the canonical turn (the agent that sends it in brackets). */
export const ORDERINGS: Record<string, (steps: readonly Step[]) => Step[]> = {
  // Cline: the first update before the tool_call, which then comes late and `pending`.
  'tool_call after its first update, pending (Cline)': (steps) =>
    eachToolCall(steps, (s, id) => moveToolCalls(s, id, (x) => isToolUpdate(x) && toolCallIdOf(x) === id, (x) => ({ update: { ...x.update, status: 'pending' } }))),
  // Kilo: the permission request first; its tool_call after the answer.
  'permission request before its tool_call (Kilo)': (steps) => eachToolCall(steps, (s, id) => moveToolCalls(s, id, (x) => isPermission(x) && toolCallIdOf(x) === id)),
  // The same, with the tool_call arriving while the permission card is still waiting.
  'tool_call while its permission request waits': (steps) =>
    eachToolCall(steps, (s, id) => {
      const asked = s.find((x) => isPermission(x) && toolCallIdOf(x) === id);
      if (!asked) return s;
      const name = asked.as ?? `ask-${id}`;
      const moved = moveToolCalls(s, id, (x) => x === asked);
      const at = moved.indexOf(asked);
      const calls = moved.slice(at + 1).filter((x) => isToolCall(x) && toolCallIdOf(x) === id).length;
      return [...moved.slice(0, at), { ...asked, as: name, wait: false }, ...moved.slice(at + 1, at + 1 + calls), { await: name }, ...moved.slice(at + 1 + calls)];
    }),
  // The older Claude adapter: a bare tool_call as the model starts the tool, then the whole one, twice.
  'the same tool_call twice, the first bare (claude-code-acp 0.16.2)': (steps) =>
    steps.flatMap((s) => (isToolCall(s) ? [stub(s), s, s] : [s])),
  // A repeat of the announcement after the tool call has finished.
  'the tool_call repeated after its last update': (steps) =>
    eachToolCall(steps, (s, id) => {
      const call = s.find((x) => isToolCall(x) && toolCallIdOf(x) === id)!;
      const last = s.map((x) => toolCallIdOf(x)).lastIndexOf(id);
      return [...s.slice(0, last + 1), call, ...s.slice(last + 1)];
    }),
  // Auggie: a tool_call without a status.
  'tool_call without a status (Auggie)': (steps) => steps.map((s) => (isToolCall(s) ? withoutStatus(s) : s)),
  // Updates for an id the client never saw a tool_call for: the announcement's fields come as an update.
  'no tool_call at all, only updates for an unknown id': (steps) =>
    steps.map((s) => (isToolCall(s) ? { update: { ...s.update, sessionUpdate: 'tool_call_update' } } : s)),
  // Optional fields left out: no status on announcements, no empty content or locations lists.
  'optional fields left out': (steps) =>
    steps.map((s) => {
      if (!s.update || (!isToolCall(s) && !isToolUpdate(s))) return s;
      const update = { ...(isToolCall(s) ? withoutStatus(s).update : s.update) };
      for (const key of ['content', 'locations'] as const) if (Array.isArray(update[key]) && (update[key] as unknown[]).length === 0) delete update[key];
      return { update };
    }),
  // Several at once: bare and repeated announcements, sent late.
  'repeated tool_calls, all after their first update': (steps) => ORDERINGS['tool_call after its first update, pending (Cline)'](ORDERINGS['the same tool_call twice, the first bare (claude-code-acp 0.16.2)'](steps)),
};

/** The orderings that change this turn (others would replay the canonical turn again). */
export function orderingsOf(canonical: readonly Step[]): Array<[string, Step[]]> {
  const same = JSON.stringify(canonical);
  return Object.entries(ORDERINGS)
    .map(([name, transform]): [string, Step[]] => [name, transform(canonical)])
    .filter(([, steps]) => JSON.stringify(steps) !== same);
}

/**
 * Writes a turn where the replay agent can read it (a prompt naming this file replays it); its files go to
 * the folder named after the file (the run's name, returned with it).
 */
export function writeTurn(dir: string, name: string, turn: readonly Step[]): { file: string; run: string } {
  const run = `run-${name.replace(/[^\w-]+/g, '-')}`;
  const file = path.join(dir, `${run}.json`);
  fs.writeFileSync(file, JSON.stringify({ turn }, null, 1));
  return { file, run };
}

/** The files a recording starts with, for a run: absolute path -> text. */
export function startingFiles(recording: Recording, cwd: string, run: string): Record<string, string> {
  const fill = (t: string) => t.split('{{cwd}}').join(cwd).split('{{run}}').join(run);
  return Object.fromEntries(Object.entries(recording.files ?? {}).map(([file, text]) => [fill(file), text]));
}
