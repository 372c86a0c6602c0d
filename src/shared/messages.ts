// THE typed protocol between the chat host (src/chat) and the chat webview (webview-ui).
// Discriminated unions on `type`; plain JSON only; no `any`.
//
// Handshake: the webview posts `ready` once its script runs (also after every reload / re-show). The host
// answers with `init` (a full ChatSnapshot), then flushes anything it queued while the view was not
// ready. After that the host sends deltas (`batch` of transcript ops etc.), coalesced per ~frame.

import type {
  AgentView,
  ChatSnapshot,
  ElicitationAnswer,
  HistoryItem,
  ImageAttachment,
  MentionCandidate,
  MentionRef,
  SessionView,
} from './chatState';
import type { Transcript, TranscriptContent, TranscriptItem } from './transcript';

/** Bumped when the protocol changes incompatibly; the host logs a mismatch. */
export const CHAT_PROTOCOL_VERSION = 1;

/** The transcript fields other than `items` (title, commands, modes, config options, models, usage...). */
export type TranscriptMeta = Omit<Transcript, 'items' | 'sessionId'>;

/** One change of a session's transcript. Applied in order. */
export type TranscriptOp =
  /** New item at the end. */
  | { op: 'append'; item: TranscriptItem }
  /** Item at `index` replaced (tool call status change, plan update...). `id` guards against drift. */
  | { op: 'replace'; index: number; id: string; item: TranscriptItem }
  /**
   * Streaming: `text` appended to the text block `contentIndex` of the message-like item at `index`
   * (user_message / agent_message / thought). When `contentIndex` equals the content length, a new text
   * block is started.
   */
  | { op: 'appendText'; index: number; id: string; contentIndex: number; text: string }
  /** Items from `length` on removed. */
  | { op: 'truncate'; length: number }
  /** Changed transcript-level fields (only the keys present changed; `undefined` values are dropped by JSON). */
  | { op: 'meta'; meta: Partial<TranscriptMeta>; cleared?: (keyof TranscriptMeta)[] };

/** Messages the host sends to the webview. */
export type HostToWebviewMessage =
  | { type: 'init'; protocolVersion: number; snapshot: ChatSnapshot }
  /** Several messages coalesced into one postMessage (applied in order, rendered once). */
  | { type: 'batch'; messages: HostToWebviewMessage[] }
  | { type: 'agents'; agents: AgentView[]; defaultAgentId?: string }
  /** A session appeared or its view (turn state, permissions, queue...) changed. */
  | { type: 'session'; session: SessionView }
  | { type: 'sessionRemoved'; sessionId: string }
  | { type: 'activeSession'; sessionId: string | undefined }
  /** Whole transcript (new session, load, or when a delta cannot be expressed). */
  | { type: 'transcriptReset'; sessionId: string; transcript: Transcript }
  | { type: 'transcriptOps'; sessionId: string; ops: TranscriptOp[] }
  /** Output of an embedded terminal (ANSI stripped). `reset` replaces what the webview has. */
  | {
      type: 'terminalOutput';
      terminalId: string;
      data: string;
      reset?: boolean;
      exitStatus?: { exitCode: number | null; signal?: string | null };
    }
  | { type: 'history'; items: HistoryItem[]; loading?: boolean }
  | { type: 'mentionResults'; requestId: number; candidates: MentionCandidate[] }
  /** Ask the webview to focus the composer, optionally inserting text (e.g. "Add selection to chat"). */
  | { type: 'focusComposer'; insert?: string; mentions?: MentionRef[] }
  /** Short-lived status text the webview announces (e.g. "Copied"). */
  | { type: 'toast'; message: string };

/** A prompt as the composer produces it. The host turns it into ACP content blocks. */
export interface ComposerPrompt {
  text: string;
  mentions: MentionRef[];
  images: ImageAttachment[];
}

export type PermissionAnswer = { optionId: string } | { cancelled: true };

/** Messages the webview sends to the host. */
export type WebviewToHostMessage =
  | { type: 'ready'; protocolVersion: number }
  /** The webview's copy drifted (an op did not apply): the host answers with a fresh `init`. */
  | { type: 'resync'; reason: string }
  | { type: 'newSession'; agentId?: string }
  | { type: 'selectSession'; sessionId: string }
  | { type: 'closeSession'; sessionId: string }
  /**
   * Send a prompt. With no `sessionId` the host first starts a session with `agentId` (or the default).
   * While a turn runs the host queues it (the queue is part of SessionView).
   */
  | { type: 'prompt'; sessionId?: string; agentId?: string; prompt: ComposerPrompt }
  | { type: 'cancel'; sessionId: string }
  | { type: 'queueEdit'; sessionId: string; queueId: string; text: string }
  | { type: 'queueRemove'; sessionId: string; queueId: string }
  /** Cancel the running turn and send this queued message right after. */
  | { type: 'queueSendNow'; sessionId: string; queueId: string }
  | { type: 'setMode'; sessionId: string; modeId: string }
  | { type: 'setModel'; sessionId: string; modelId: string }
  | { type: 'setConfigOption'; sessionId: string; configId: string; value: string | boolean }
  | { type: 'permissionAnswer'; sessionId: string; requestId: string; answer: PermissionAnswer }
  | { type: 'elicitationAnswer'; sessionId: string; requestId: string; answer: ElicitationAnswer }
  | { type: 'dismissError'; sessionId: string }
  | { type: 'restartAgent'; agentId: string }
  | { type: 'authenticate'; agentId: string; methodId: string }
  | { type: 'refreshHistory' }
  | { type: 'openHistory'; historyId: string; mode: 'load' | 'resume' }
  | { type: 'deleteHistory'; historyId: string }
  | { type: 'mentionQuery'; requestId: number; sessionId?: string; query: string }
  | { type: 'copyCode'; code: string }
  | { type: 'insertCode'; code: string }
  | { type: 'openCode'; code: string; language?: string }
  /** A link in agent output. The host only opens http(s)/mailto (via openExternal, which confirms) or workspace files. */
  | { type: 'openLink'; href: string }
  | { type: 'openLocation'; path: string; line?: number }
  | { type: 'openResource'; uri: string }
  | { type: 'openDiff'; sessionId: string; toolCallId: string; path: string }
  /** Per changed file: open its diff, keep the change, or undo it. */
  | { type: 'changedFileAction'; sessionId: string; key: string; action: 'open' | 'keep' | 'undo' }
  /** Keep All / Undo All of the session's pending changed files. */
  | { type: 'changedFilesAll'; sessionId: string; action: 'keep' | 'undo' }
  | { type: 'showProtocolLog' }
  /** Webview-side errors, for the host's log. */
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string };

export type WebviewToHostType = WebviewToHostMessage['type'];
export type HostToWebviewType = HostToWebviewMessage['type'];

const WEBVIEW_TO_HOST_TYPES: ReadonlySet<string> = new Set<WebviewToHostType>([
  'ready', 'resync', 'newSession', 'selectSession', 'closeSession', 'prompt', 'cancel', 'queueEdit', 'queueRemove',
  'queueSendNow', 'setMode', 'setModel', 'setConfigOption', 'permissionAnswer', 'elicitationAnswer',
  'dismissError', 'restartAgent', 'authenticate', 'refreshHistory', 'openHistory', 'deleteHistory',
  'mentionQuery', 'copyCode', 'insertCode', 'openCode', 'openLink', 'openLocation', 'openResource',
  'openDiff', 'changedFileAction', 'changedFilesAll', 'showProtocolLog', 'log',
]);

/**
 * Cheap structural guard for messages coming from the webview (a compromised webview is untrusted input:
 * the host still validates the fields it uses).
 */
export function isWebviewToHostMessage(value: unknown): value is WebviewToHostMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    WEBVIEW_TO_HOST_TYPES.has((value as { type: string }).type)
  );
}

/**
 * Applies ops to a transcript: the webview's reducer (also used by host tests for round trips).
 * Copies only what changes (the items array once, each changed item), so unchanged items keep their
 * identity and keyed, memoised rendering skips them. Throws on drift (the webview then asks for a resync).
 */
export function applyTranscriptOps(
  t: Transcript,
  ops: readonly TranscriptOp[],
  /** Told of each text append (the webview's Markdown then reads only the new text). */
  onAppend?: (prev: TranscriptContent, next: TranscriptContent, chunk: string) => void,
): Transcript {
  let items = t.items;
  let copied = false;
  const own = (): TranscriptItem[] => {
    if (!copied) {
      items = items.slice();
      copied = true;
    }
    return items;
  };
  let next: Transcript = t;
  for (const op of ops) {
    switch (op.op) {
      case 'append':
        own().push(op.item);
        break;
      case 'replace':
        if (items[op.index]?.id !== op.id) throw new Error(`transcript drift at ${op.index}`);
        own()[op.index] = op.item;
        break;
      case 'truncate':
        own().length = Math.min(items.length, op.length);
        break;
      case 'appendText': {
        const item = items[op.index];
        if (!item || item.id !== op.id || (item.kind !== 'user_message' && item.kind !== 'agent_message' && item.kind !== 'thought')) {
          throw new Error(`transcript drift at ${op.index}`);
        }
        const content = item.content.slice();
        const block = content[op.contentIndex];
        if (block === undefined) content[op.contentIndex] = { type: 'text', text: op.text };
        else if (block.type === 'text') {
          const next: TranscriptContent = { type: 'text', text: block.text + op.text };
          content[op.contentIndex] = next;
          onAppend?.(block, next, op.text);
        }
        else throw new Error('appendText to a non-text block');
        own()[op.index] = { ...item, content } as TranscriptItem;
        break;
      }
      case 'meta': {
        next = { ...next, ...op.meta };
        if (op.cleared) {
          const n = { ...next } as Record<string, unknown>;
          for (const k of op.cleared) delete n[k];
          next = n as unknown as Transcript;
        }
        break;
      }
    }
  }
  return { ...next, items };
}
