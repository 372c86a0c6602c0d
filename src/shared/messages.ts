// THE typed protocol between the chat host (src/chat) and the chat webview (webview-ui).
// Discriminated unions on `type`; plain JSON only; no `any`.
//
// Handshake: the webview posts `ready` once its script runs (also after every reload / re-show), and again,
// backing off, until `init` arrives. The host answers every `ready` with `init` (a full ChatSnapshot), then
// flushes anything it queued while the view was not ready. After that the host sends changes (`batch` of transcript ops etc.), coalesced per ~frame.
// Transcripts travel only as a snapshot (`init`, `transcriptReset`) or as the reducer's own ops.

import type {
  AgentView,
  ChatSnapshot,
  HistoryItem,
  ImageAttachment,
  MentionCandidate,
  MentionRef,
  SessionView,
} from './chatState';
import type { CheckpointView } from './checkpoints';
import type * as z from './zod';
import type { Transcript } from './transcript';
import type { TranscriptOp } from './transcriptOps';
import type { webviewToHostSchema } from './webviewMessageSchema';

/** Bumped when the protocol changes incompatibly; the host logs a mismatch. */
export const CHAT_PROTOCOL_VERSION = 2;

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
  /**
   * A `newSession` the webview asked for (by its `requestId`) has ended: its session opened (`sessionId`,
   * sent after that session and its activation) or it failed. Sent in the batch, after the session.
   */
  | { type: 'newSessionSettled'; requestId: string; sessionId?: string }
  /** The whole transcript of a session the webview has not seen yet; the next ops message has seq 1. */
  | { type: 'transcriptReset'; sessionId: string; transcript: Transcript }
  /**
   * The ops the session's transcript went through since the last message, in order. `seq` counts these
   * messages per session from the last snapshot (`init` or `transcriptReset`): a gap means something was
   * missed, and the webview asks for a snapshot (`resync`) instead of applying.
   */
  | { type: 'transcriptOps'; sessionId: string; seq: number; ops: TranscriptOp[] }
  /** Output of an embedded terminal (ANSI stripped). `reset` replaces what the webview has. */
  | {
      type: 'terminalOutput';
      terminalId: string;
      data: string;
      reset?: boolean;
      exitStatus?: { exitCode: number | null; signal?: string | null };
      /** Its VS Code terminal opened (true) or closed (false); absent: unchanged. */
      open?: boolean;
    }
  | { type: 'history'; items: HistoryItem[]; loading?: boolean }
  | { type: 'mentionResults'; requestId: number; candidates: MentionCandidate[] }
  /** The answer to `openPlanFile`: `error` says why the plan's file (`uri`, as the card showed it) did not open. */
  | { type: 'planFileOpened'; sessionId: string; planId: string; uri: string; error?: string }
  /** Ask the webview to focus the composer, optionally inserting text or chips (Add to Chat); `notice` says why something was not added. */
  | { type: 'focusComposer'; insert?: string; mentions?: MentionRef[]; notice?: string }
  /** Bring a pending permission request on screen and focus its first option ("Show" on a notification). */
  | { type: 'revealRequest'; sessionId: string; requestId: string }
  /** What the checkpoint of a user message shows now (the answer to `checkpointAction`). */
  | { type: 'checkpoint'; sessionId: string; itemId: string; view: CheckpointView }
  /** Short-lived status text the webview announces (e.g. "Copied"). */
  | { type: 'toast'; message: string };

/** A prompt as the composer produces it. The host turns it into ACP content blocks. */
export interface ComposerPrompt {
  text: string;
  mentions: MentionRef[];
  images: ImageAttachment[];
}

export type PermissionAnswer = { optionId: string } | { cancelled: true };

/** Messages the webview sends to the host (the schema in ./webviewMessageSchema is their one definition). */
export type WebviewToHostMessage = z.output<typeof webviewToHostSchema>;

/** What a chip knows beside its URI (its kind, lines, the text it carries), sent with `openResource`. */
export type ResourceContent = Omit<Extract<WebviewToHostMessage, { type: 'openResource' }>, 'type' | 'uri'>;
