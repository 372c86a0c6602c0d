import type { PendingPermission } from '../../../src/shared/chatState';
import type { ToolCallContentItem, ToolCallStatus, ToolKind, ToolLocation, ToolOutput, TranscriptItem } from '../../../src/shared/transcript';
import { stripAnsi } from '../../../src/shared/ansi';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { basename } from './format';
import { memo } from './memo';
import { useStore, useStoreVersion } from './storeHooks';
import { ContentBlock } from './Content';
import { previewDiff } from '../../../src/shared/lineDiff';
import { PermissionRequest } from './Permission';
import { RawDisclosure } from './RawDisclosure';
import { comparable, withoutShown, type ShownText } from './rawValue';

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

export function statusOf(s: string): StatusView {
  return STATUS[s as ToolCallStatus] ?? { icon: 'question', label: s };
}

/** A call the turn ended without a result for: not shown running any more. */
function unfinishedStatus(stopReason: string): StatusView {
  if (stopReason === 'cancelled') return { icon: 'circle-slash', label: 'Cancelled', title: 'The turn was stopped before this tool call finished' };
  return { icon: 'circle-slash', label: 'No result', title: 'The agent ended its turn without reporting how this tool call ended' };
}

export function Locations({ locations }: { locations: ToolLocation[] }) {
  const store = useStore();
  if (!locations.length) return null;
  return (
    <ul class="locations" aria-label="Locations">
      {locations.map((l, i) => {
        const text = `${basename(l.path)}${l.line ? `:${l.line}` : ''}`;
        return (
          <li key={`${l.path}:${l.line ?? ''}:${i}`}>
            <button
              type="button"
              class="link-button"
              title={l.path + (l.line ? `:${l.line}` : '')}
              aria-label={`Open ${l.path}${l.line ? ` at line ${l.line}` : ''}`}
              onClick={() => store.post({ type: 'openLocation', path: l.path, ...(l.line ? { line: l.line } : {}) })}
            >
              <Icon name="go-to-file" />
              {text}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function DiffPreview({ item, sessionId, toolCallId }: { item: Extract<ToolCallContentItem, { type: 'diff' }>; sessionId: string; toolCallId?: string }) {
  const store = useStore();
  const d = previewDiff(item.oldText, item.newText);
  return (
    <div class="diff-preview">
      <div class="diff-header">
        <Icon name={item.oldText === null ? 'new-file' : 'diff'} />
        <span class="diff-path" title={item.path}>
          {basename(item.path)}
        </span>
        <span class="diff-stat">
          {d.tooLarge ? (
            <span class="muted">too large to preview</span>
          ) : (
            <>
              <span class="added">+{d.added}</span> <span class="removed">−{d.removed}</span>
            </>
          )}
        </span>
        {toolCallId && (
          <button
            type="button"
            class="secondary-button"
            onClick={() => store.post({ type: 'openDiff', sessionId, toolCallId, path: item.path })}
          >
            Open diff
          </button>
        )}
      </div>
      <pre class="diff-lines" aria-label={`Changes to ${basename(item.path)}`}>
        {d.lines.map((l, i) => (
          <div key={i} class={l.sign === '+' ? 'diff-add' : l.sign === '-' ? 'diff-del' : 'diff-ctx'}>
            <span class="diff-sign" aria-hidden="true">
              {l.sign}
            </span>
            {l.text || ' '}
          </div>
        ))}
        {d.more > 0 && <div class="diff-more">… {d.more} more lines</div>}
      </pre>
    </div>
  );
}

export function TerminalOutput({ terminalId, sessionId }: { terminalId: string; sessionId: string }) {
  const store = useStore();
  useStoreVersion();
  const t = store.state.terminals.get(terminalId);
  const exit = t?.exitStatus;
  return (
    <div class="terminal">
      {t?.open === true && (
        <div class="terminal-actions">
          <button type="button" class="secondary-button" onClick={() => store.post({ type: 'openTerminal', sessionId, terminalId })}>
            <Icon name="terminal" />
            Open terminal
          </button>
        </div>
      )}
      {t?.open === false && <div class="terminal-actions muted">Terminal closed</div>}
      <pre class="terminal-output" tabIndex={0} aria-label="Terminal output">
        {t?.truncated ? '…\n' : ''}
        {t?.output ?? ''}
      </pre>
      {exit && (
        <div class="terminal-exit">
          {exit.signal ? `Killed by ${exit.signal}` : `Exited with code ${exit.exitCode ?? '?'}`}
        </div>
      )}
    </div>
  );
}

export function ToolContent({
  content,
  sessionId,
  toolCallId,
  idBase,
  ownOutput = false,
  openRequest,
}: {
  content: ToolCallContentItem[];
  sessionId: string;
  toolCallId?: string;
  idBase: string;
  /** A new value opens the resources' contents (find revealing a match in them). */
  openRequest?: object;
  /** The tool call carries its own output: a terminal the client never created (the agent's own shell) shows that instead. */
  ownOutput?: boolean;
}) {
  const store = useStore();
  return (
    <>
      {content.map((c, i) => {
        switch (c.type) {
          case 'content':
            return <ContentBlock key={i} block={c.content} idBase={`${idBase}-${i}`} openRequest={openRequest} />;
          case 'diff':
            return <DiffPreview key={i} item={c} sessionId={sessionId} toolCallId={toolCallId} />;
          case 'terminal':
            return ownOutput && !store.state.terminals.has(c.terminalId) ? null : <TerminalOutput key={i} terminalId={c.terminalId} sessionId={sessionId} />;
          default:
            return (
              <Collapsible key={i} id={`${idBase}-${i}`} label="Unsupported tool content">
                {() => <pre class="raw-json">{JSON.stringify(c.raw, null, 2)}</pre>}
              </Collapsible>
            );
        }
      })}
    </>
  );
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
export function shellQuote(arg: string): string {
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
