// One transcript item, drawn by its kind: messages, thoughts, tool calls, plans, notices, compactions,
// messages between sessions and subagents.
import type { PendingPermission } from '../../../src/shared/chatState';
import type { StopReason, TranscriptItem } from '../../../src/shared/transcript';
import type { NestReveal } from '../find/transcriptSearch';
import { Collapsible } from './Collapsible';
import { Icon } from './Icon';
import { memo } from './memo';
import { CheckpointCard } from './CheckpointCard';
import { ContentList } from './ContentList';
import { CopyMessage } from './CopyMessage';
import { ForkFromHere } from './ForkFromHere';
import { PlanView } from './PlanView';
import { RestoreCheckpointButton } from './RestoreCheckpointButton';
import { SubagentNest } from './SubagentNest';
import { ToolCallCard } from './ToolCallCard';
import { streamKey } from '../textStreams';
import { usageText } from './usageText';

export function stopReasonText(reason: StopReason, empty: boolean): string | undefined {
  switch (reason) {
    case 'end_turn':
      return empty ? 'The agent returned no response.' : undefined;
    case 'max_tokens':
      return 'Stopped: the response reached the maximum number of tokens.';
    case 'max_turn_requests':
      return 'Stopped: the turn reached the maximum number of model requests.';
    case 'refusal':
      return 'The agent refused to continue.';
    case 'cancelled':
      return 'Cancelled.';
    default:
      return `Stopped: ${reason}.`;
  }
}

export interface ItemProps {
  item: TranscriptItem;
  sessionId: string;
  /** The permission request pending for this tool call: its card shows the options. */
  permission?: PendingPermission;
  /** For a subagent: the pending requests of it and of its own children, shown in its card. */
  permissions?: readonly PendingPermission[];
  /** Find's current match is inside this item: the nests and the section to open for it. */
  reveal?: NestReveal;
}

/** Find's reveal, when the item's collapsible section holds the current match (it opens then). */
function opening(reveal: NestReveal | undefined, item: TranscriptItem): NestReveal | undefined {
  return reveal?.section === item.id ? reveal : undefined;
}

export const TranscriptItemView = memo(function TranscriptItemView({ item, sessionId, permission, permissions, reveal }: ItemProps) {
  switch (item.kind) {
    case 'user_message':
      return (
        <div class={item.steered ? 'message user steered' : 'message user'} role="article" aria-label={item.steered ? 'You (steered)' : 'You'}>
          <div class="message-author">
            You
            {item.steered && (
              <span class="badge steered-badge" title="Sent into the running turn">
                steered
              </span>
            )}
            <CopyMessage content={item.content} who="your" />
            <ForkFromHere sessionId={sessionId} itemId={item.id} />
            <RestoreCheckpointButton sessionId={sessionId} itemId={item.id} />
          </div>
          <ContentList content={item.content} idBase={item.id} streamOf={(i) => streamKey(sessionId, item.id, i)} openRequest={opening(reveal, item)} />
          <CheckpointCard sessionId={sessionId} itemId={item.id} />
        </div>
      );
    case 'agent_message':
      return (
        <div class="message agent" role="article" aria-label="Agent">
          <ContentList content={item.content} idBase={item.id} streamOf={(i) => streamKey(sessionId, item.id, i)} openRequest={opening(reveal, item)} />
          <div class="message-actions">
            <CopyMessage content={item.content} who="the agent's" />
          </div>
        </div>
      );
    case 'thought':
      return (
        <div class="thought">
          <Collapsible id={item.id} label={<span>Thinking</span>} ariaLabel="Thinking" className="thought-toggle" openRequest={opening(reveal, item)}>
            {() => <ContentList content={item.content} idBase={item.id} streamOf={(i) => streamKey(sessionId, item.id, i)} />}
          </Collapsible>
        </div>
      );
    case 'tool_call':
      return <ToolCallCard item={item} sessionId={sessionId} permission={permission} openRequest={opening(reveal, item)} />;
    case 'plan':
      return <PlanView item={item} sessionId={sessionId} />;
    case 'notice':
      return (
        <div class={`notice severity-${item.severity}`}>
          <Icon name={item.severity === 'error' ? 'error' : item.severity === 'warning' ? 'warning' : 'info'} />
          <div>
            <div class="notice-title">{item.title}</div>
            {item.description && <div class="notice-description">{item.description}</div>}
          </div>
        </div>
      );
    case 'compaction':
      return (
        <div class="compaction">
          <div class="item-header">
            <Icon name="fold" />
            <span>Context compacted{item.status && item.status !== 'completed' ? ` (${item.status})` : ''}</span>
          </div>
          {item.error && <div class="error-text">{item.error}</div>}
          {item.summary.length > 0 && (
            <Collapsible id={item.id} label="Summary" openRequest={opening(reveal, item)}>
              {() => <ContentList content={item.summary} idBase={item.id} />}
            </Collapsible>
          )}
        </div>
      );
    case 'session_message': {
      // Sent from this session when it names a recipient; otherwise received from the sender.
      const label = item.recipientSessionId ? `Message to session ${item.recipientSessionId}` : `Message from session ${item.senderSessionId ?? 'another session'}`;
      return (
        <div class="message session-message" role="article" aria-label={label}>
          <div class="session-message-header muted">
            <Icon name="mail" /> {label}
          </div>
          <ContentList content={item.content} idBase={item.id} openRequest={opening(reveal, item)} />
        </div>
      );
    }
    case 'subagent':
      return (
        <SubagentNest
          item={item}
          sessionId={sessionId}
          permissions={permissions}
          reveal={reveal}
          renderItem={(child, place) => <TranscriptItemView item={child} sessionId={sessionId} {...place} />}
        />
      );
    case 'turn_end': {
      const text = stopReasonText(item.stopReason, item.empty);
      const usage = item.usage && usageText(item.usage);
      if (!text && !usage) return <div class="turn-end" aria-hidden="true" />;
      return (
        <div class={`turn-end reason-${item.stopReason}${item.empty ? ' empty' : ''}`}>
          {text && (
            <>
              <Icon name={item.stopReason === 'cancelled' ? 'debug-stop' : 'info'} /> {text}
            </>
          )}
          {usage && <span class="turn-usage muted">{usage}</span>}
        </div>
      );
    }
    case 'error':
      return (
        <div class="error-item">
          <Icon name="error" />
          <div>
            <div class="error-text">{item.message}</div>
            {item.detail && (
              <Collapsible id={item.id} label="Details" openRequest={opening(reveal, item)}>
                {() => <pre class="raw-json">{item.detail}</pre>}
              </Collapsible>
            )}
          </div>
        </div>
      );
    case 'unsupported':
      return (
        <div class="unsupported">
          <Collapsible id={item.id} label={`Unsupported update: ${item.updateType}`}>
            {() => <pre class="raw-json">{JSON.stringify(item.raw, null, 2)}</pre>}
          </Collapsible>
        </div>
      );
    default: {
      const unknown = item as { kind?: unknown };
      return <div class="unsupported">Unsupported item: {String(unknown.kind)}</div>;
    }
  }
});
