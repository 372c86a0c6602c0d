// A tool call's card: its kind, title and status, the files it names, its details (command, content,
// shell output), its raw input and output, and the permission request pending for it.
import type { PendingPermission } from '../../../src/shared/chatState';
import type { ToolCallContentItem, ToolCallStatus, ToolKind, ToolOutput, TranscriptItem } from '../../../src/shared/transcript';
import { stripAnsi } from '../../../src/shared/ansi';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { memo } from './memo';
import { useStore } from './storeHooks';
import { Locations } from './Locations';
import { PermissionRequest } from './PermissionRequest';
import { RawDisclosure } from './RawDisclosure';
import { comparable, withoutShown, type ShownText } from './rawValue';
import { ToolContent } from './ToolContent';

type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

export const KIND_ICON: Record<ToolKind, string> = {
  read: 'file',
  edit: 'edit',
  delete: 'trash',
  move: 'file-symlink-file',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'arrow-swap',
  other: 'tools',
};

/** How a card shows its status; `title` explains a status the label alone does not. */
interface StatusView {
  icon: string;
  label: string;
  spin?: boolean;
  title?: string;
}

const STATUS: Record<ToolCallStatus, StatusView> = {
  pending: { icon: 'circle-large-outline', label: 'Pending' },
  in_progress: { icon: 'loading', label: 'Running', spin: true },
  completed: { icon: 'check', label: 'Completed' },
  failed: { icon: 'error', label: 'Failed' },
};

function statusOf(s: string): StatusView {
  return STATUS[s as ToolCallStatus] ?? { icon: 'question', label: s };
}

/** A call the turn ended without a result for: not shown running any more. */
function unfinishedStatus(stopReason: string): StatusView {
  if (stopReason === 'cancelled') return { icon: 'circle-slash', label: 'Cancelled', title: 'The turn was stopped before this tool call finished' };
  return { icon: 'circle-slash', label: 'No result', title: 'The agent ended its turn without reporting how this tool call ended' };
}

function commandOf(raw: unknown): string | undefined {
  if (raw && typeof raw === 'object') {
    const c = (raw as { command?: unknown }).command;
    if (typeof c === 'string') return c;
    if (Array.isArray(c) && c.every((x) => typeof x === 'string')) return c.map(shellQuote).join(' ');
  }
  return undefined;
}

/** An argv entry as a POSIX shell would need it typed, so the line shown is the command that ran. */
function shellQuote(arg: string): string {
  if (arg === '') return "''";
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** What the agent's own shell printed, ANSI-stripped, with its exit code. */
function CommandOutput({ output, title }: { output: ToolOutput; title: string }) {
  const exit = output.exitCode;
  return (
    <div class="terminal">
      <pre class="terminal-output" tabIndex={0} aria-label={`Output of ${title}`}>
        {output.truncated ? '…\n' : ''}
        {stripAnsi(output.text)}
      </pre>
      {exit !== undefined && <div class="terminal-exit">{exit === null ? 'Killed by a signal' : `Exited with code ${exit}`}</div>}
    </div>
  );
}

/** The content without text blocks that say what the shell output says (Kilo sends it both ways). */
function withoutOutputText(content: ToolCallContentItem[], output: ToolOutput): ToolCallContentItem[] {
  if (!content.some((c) => c.type === 'content' && c.content.type === 'text')) return content;
  const printed = comparable(output.text);
  return content.filter((c) => !(c.type === 'content' && c.content.type === 'text' && comparable(c.content.text) === printed));
}

/** The texts a card shows: its text blocks, embedded resources, the terminals it shows and its shell output. */
function shownTexts(content: ToolCallContentItem[], terminals: ReadonlyMap<string, { output: string; truncated?: boolean }>, output: ToolOutput | undefined): ShownText {
  const whole: string[] = [];
  const tails: string[] = [];
  if (output) (output.truncated ? tails : whole).push(output.text);
  for (const c of content) {
    if (c.type === 'content' && c.content.type === 'text') whole.push(c.content.text);
    else if (c.type === 'content' && c.content.type === 'resource' && c.content.text !== undefined) whole.push(c.content.text);
    else if (c.type === 'terminal') {
      const t = terminals.get(c.terminalId);
      if (t) (t.truncated ? tails : whole).push(t.output);
    }
  }
  return { whole, tails };
}

export const ToolCallCard = memo(function ToolCallCard({
  item,
  sessionId,
  permission,
  openRequest,
}: {
  item: ToolCallItem;
  sessionId: string;
  permission?: PendingPermission;
  /** A new value opens "Details" (find revealing a match in it). */
  openRequest?: object;
}) {
  const store = useStore();
  const awaiting = permission !== undefined;
  const st: StatusView = awaiting ? { icon: 'shield', label: 'Awaiting permission' } : item.unfinished !== undefined ? unfinishedStatus(item.unfinished) : statusOf(item.status);
  const icon = KIND_ICON[item.toolKind] ?? 'tools';
  const command = item.toolKind === 'execute' ? commandOf(item.rawInput) : undefined;
  const output = item.output;
  // The shell output shown with its exit code is not shown again as a text block.
  const content = output ? withoutOutputText(item.content, output) : item.content;
  const hasBody = content.length > 0 || command !== undefined || output !== undefined;
  const quiet = item.status === 'completed' && ['read', 'search', 'think', 'fetch'].includes(item.toolKind);
  const title = item.title || 'Tool call';
  const rawInput = withoutShown(item.rawInput, { whole: [title, ...(command !== undefined ? [command] : [])] });
  const rawOutput = withoutShown(item.rawOutput, shownTexts(content, store.state.terminals, output));
  return (
    <div class={`tool-call status-${item.status}${awaiting ? ' awaiting' : ''}`} role="group" aria-label={title}>
      <div class="tool-header">
        <Icon name={icon} label={item.rawKind ?? item.toolKind} />
        <span class="tool-title">{title}</span>
        {item.toolName && !title.toLowerCase().includes(item.toolName.toLowerCase()) && <span class="tool-name muted">{item.toolName}</span>}
        <span class={`tool-status status-${item.unfinished !== undefined ? 'unfinished' : item.status}`} title={st.title}>
          <Icon name={st.icon} spin={st.spin} />
          {st.label}
        </span>
      </div>
      <Locations locations={item.locations} />
      {hasBody && (
        <Collapsible id={`tc-${item.id}`} label="Details" ariaLabel={`Details of ${title}`} defaultOpen={!quiet} openRequest={openRequest}>
          {() => (
            <>
              {command !== undefined && <pre class="tool-command">$ {command}</pre>}
              <ToolContent content={content} sessionId={sessionId} toolCallId={item.toolCallId} idBase={item.id} ownOutput={output !== undefined} openRequest={openRequest} />
              {output !== undefined && <CommandOutput output={output} title={title} />}
            </>
          )}
        </Collapsible>
      )}
      {(rawInput !== undefined || rawOutput !== undefined) && (
        <div class="tool-raws">
          {rawInput !== undefined && <RawDisclosure id={`tc-${item.id}-in`} label="Input" title={title} value={rawInput} />}
          {rawOutput !== undefined && <RawDisclosure id={`tc-${item.id}-out`} label="Output" title={title} value={rawOutput} />}
        </div>
      )}
      {permission && <PermissionRequest request={permission} sessionId={sessionId} shown={item.content} shownCommand={command} />}
    </div>
  );
});
