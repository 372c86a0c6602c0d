// A transcript as Markdown: the whole session for "Export Session as Markdown", one item for "Copy".
// Pure: the host exports with it, the webview copies with it. Long texts are cut, and the cut is said.
import { stripAnsi } from './ansi';
import type { SubagentItem, ToolCallContentItem, ToolOutput, Transcript, TranscriptContent, TranscriptItem } from './transcript';

/** The most characters one text block, diff or tool output contributes; the rest is cut, with a note. */
export const MAX_EXPORT_BLOCK = 20_000;

export interface MarkdownExportOptions {
  /** The session's title as its tab shows it (default: the transcript's own). */
  title?: string;
  /** The agent's display name, shown under the title. */
  agentName?: string;
  /** Characters kept per block (default MAX_EXPORT_BLOCK). */
  maxBlock?: number;
}

const cutNote = (chars: number): string => `… (${chars.toLocaleString('en-US')} more characters cut from the export)`;

function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n${cutNote(text.length - max)}`;
}

/** A fence longer than any run of backticks inside `text`, so the block cannot end early. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/** The start of `text` (at most `max` characters) fenced; a cut is said after the block, never inside it. */
function fencedBounded(text: string, max: number, lang = ''): string {
  if (text.length <= max) return fenced(text, lang);
  return `${fenced(text.slice(0, max), lang)}\n${cutNote(text.length - max)}`;
}

/** A command's output: its end is kept (where results and errors are); what is missing from its start is said before it. */
function outputMarkdown(output: ToolOutput, max: number): string {
  const text = stripAnsi(output.text);
  const cut = Math.max(0, text.length - max);
  const notes = [
    output.truncated && 'the start of this output was not kept',
    cut > 0 && `${cut.toLocaleString('en-US')} ${output.truncated ? 'more ' : ''}characters cut from its start in the export`,
  ].filter(Boolean);
  const exit = output.exitCode === undefined || output.exitCode === null ? '' : `\nExit code ${output.exitCode}`;
  return `${notes.length ? `… (${notes.join('; ')})\n` : ''}${fenced(text.slice(cut), 'text')}${exit}`;
}

/** How many bytes base64 `data` decodes to (its padding counts for none). */
const base64Bytes = (data: string): number => Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

function contentMarkdown(c: TranscriptContent, max: number): string {
  switch (c.type) {
    case 'text':
      return bounded(c.text, max);
    case 'image':
      return `*[image: ${c.mimeType}${c.uri ? `, ${c.uri}` : c.data ? `, ${base64Bytes(c.data).toLocaleString('en-US')} bytes, not exported` : ''}]*`;
    case 'audio':
      return `*[audio: ${c.mimeType}, not exported]*`;
    case 'resource_link':
      return `[${c.title ?? c.name}](${c.uri})`;
    case 'resource':
      return c.text !== undefined ? `${c.uri}\n\n${fencedBounded(c.text, max)}` : `*[${c.uri}${c.mimeType ? `, ${c.mimeType}` : ''}: binary, not exported]*`;
    case 'unknown':
      return fencedBounded(JSON.stringify(c.raw, null, 2) ?? '', max, 'json');
  }
}

function contents(items: readonly TranscriptContent[], max: number): string {
  return items.map((c) => contentMarkdown(c, max)).join('\n\n');
}

/** A message's content as Markdown (the message's "Copy"): its text as the agent wrote it, attachments as links or notes. */
export function contentsMarkdown(items: readonly TranscriptContent[], options: Pick<MarkdownExportOptions, 'maxBlock'> = {}): string {
  return contents(items, options.maxBlock ?? MAX_EXPORT_BLOCK);
}

/** A diff as unified-style lines: every old line removed, every new line added (enough to read it back). */
function diffMarkdown(d: Extract<ToolCallContentItem, { type: 'diff' }>, max: number): string {
  const lines = [`--- ${d.oldText === null ? '/dev/null' : `a/${d.path}`}`, `+++ b/${d.path}`];
  if (d.oldText) for (const l of d.oldText.split('\n')) lines.push(`-${l}`);
  for (const l of d.newText.split('\n')) lines.push(`+${l}`);
  return fencedBounded(lines.join('\n'), max, 'diff');
}

function toolCallMarkdown(t: Extract<TranscriptItem, { kind: 'tool_call' }>, max: number): string {
  const status = t.unfinished ? `no result (${t.unfinished})` : t.status;
  const parts = [`### Tool: ${t.title} (${t.rawKind ?? t.toolKind}, ${status})`];
  if (t.locations.length) parts.push(t.locations.map((l) => `- ${l.path}${l.line ? `:${l.line}` : ''}`).join('\n'));
  // A shell's output sent also as a text block (Kilo) is written once, with its exit code, as the chat shows it.
  const printed = t.output && stripAnsi(t.output.text).trim();
  for (const c of t.content) {
    if (c.type === 'content' && printed && c.content.type === 'text' && stripAnsi(c.content.text).trim() === printed) continue;
    if (c.type === 'content') parts.push(contentMarkdown(c.content, max));
    else if (c.type === 'diff') parts.push(diffMarkdown(c, max));
    else if (c.type === 'terminal') parts.push(`*[terminal ${c.terminalId}]*`);
    else parts.push(fencedBounded(JSON.stringify(c.raw, null, 2) ?? '', max, 'json'));
  }
  if (t.output) parts.push(outputMarkdown(t.output, max));
  return parts.join('\n\n');
}

/** A child's work state in words ('' when the agent never said). */
function subagentState(item: SubagentItem): string {
  const st = item.state;
  if (!st) return '';
  if (st.state === 'requires_action') return 'waiting for the user';
  if (st.state !== 'idle') return st.state;
  if (st.stopReason === 'error') return `failed${st.error ? `: ${st.error}` : ''}`;
  return st.stopReason === undefined || st.stopReason === 'end_turn' ? 'finished' : st.stopReason;
}

/** Every line quoted once more, so a nest's transcript reads as nested under its heading. */
function quoted(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
}

/** A subagent: its heading (title, state), then its own transcript quoted under it, nests in nests quoted deeper. */
function subagentMarkdown(item: SubagentItem, options: MarkdownExportOptions): string {
  const name = item.title ?? (item.unannounced ? 'Unknown subagent' : 'Subagent');
  const state = subagentState(item);
  const head = [`### Subagent: ${name}${state ? ` (${state})` : ''}`];
  if (item.description) head.push(`*${item.description}*`);
  const body = item.transcript.items.map((i) => itemMarkdown(i, { ...options, agentName: name })).filter((t) => t !== '');
  return quoted([...head, ...body].join('\n\n'));
}

/** One transcript item as Markdown ('' for items that say nothing on their own, such as a plain turn end). */
export function itemMarkdown(item: TranscriptItem, options: MarkdownExportOptions = {}): string {
  const max = options.maxBlock ?? MAX_EXPORT_BLOCK;
  switch (item.kind) {
    case 'user_message':
      return `## You\n\n${contents(item.content, max)}`;
    case 'agent_message':
      return `## ${options.agentName ?? 'Agent'}\n\n${contents(item.content, max)}`;
    case 'thought':
      return `> *Thought:* ${contents(item.content, max).replace(/\n/g, '\n> ')}`;
    case 'tool_call':
      return toolCallMarkdown(item, max);
    case 'plan':
      return item.markdown !== undefined
        ? `### Plan\n\n${bounded(item.markdown, max)}`
        : `### Plan\n\n${item.entries.map((e) => `- [${e.status === 'completed' ? 'x' : ' '}] ${e.content}${e.status === 'in_progress' ? ' (in progress)' : ''}`).join('\n')}`;
    case 'notice':
      return `> **${item.title}**${item.description ? ` ${item.description}` : ''}`;
    case 'compaction':
      return `> *Context compacted (${item.status})*${item.summary.length ? `\n\n${contents(item.summary, max)}` : ''}`;
    case 'subagent':
      return subagentMarkdown(item, options);
    case 'session_message':
      return `> *Message ${item.senderSessionId ? `from ${item.senderSessionId}` : `to ${item.recipientSessionId ?? 'another session'}`}:* ${contents(item.content, max)}`;
    case 'turn_end':
      if (item.empty) return '> *The agent returned no response.*';
      return item.stopReason === 'end_turn' ? '' : `> *Turn ended: ${item.stopReason}*`;
    case 'error':
      return `> **Error:** ${item.message}${item.detail ? `\n>\n> ${item.detail.replace(/\n/g, '\n> ')}` : ''}`;
    case 'unsupported':
      return `> *Unsupported update \`${item.updateType}\`*`;
  }
}

/** The whole session: title, agent, then every item in order. */
export function transcriptMarkdown(transcript: Transcript, options: MarkdownExportOptions = {}): string {
  const head = [`# ${options.title ?? transcript.title ?? 'Switchboard session'}`];
  const meta = [options.agentName && `Agent: ${options.agentName}`, transcript.updatedAt && `Last updated: ${transcript.updatedAt}`].filter(Boolean);
  if (meta.length) head.push(`*${meta.join(' · ')}*`);
  const body = transcript.items.map((i) => itemMarkdown(i, options)).filter((s) => s !== '');
  return `${[...head, ...body].join('\n\n')}\n`;
}
