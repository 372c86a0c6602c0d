// The ONLY interface between the chat panel (src/chat + webview-ui) and the rest of the extension.
// src/host/session implements it on top of the real ACP sessions (connection + reducer + host bridges).
// No `vscode` import: a `vscode.EventEmitter<T>['event']` satisfies `ChatEvent<T>`.

import type {
  AgentView,
  ElicitationAnswer,
  HistoryItem,
  MentionCandidate,
  ProviderAction,
  SessionView,
  TerminalSnapshot,
} from '../shared/chatState';
import type { CheckpointAction, CheckpointView } from '../shared/checkpoints';
import type { ComposerPrompt, PermissionAnswer, ResourceContent } from '../shared/messages';
import type { Transcript } from '../shared/transcript';
import type { TranscriptOp } from '../shared/transcriptOps';
import type { SteerOutcome } from '../acp';

export interface Disposable {
  dispose(): unknown;
}

/**
 * What became of a Steer: the agent took it (`injected` in the running turn, or `startedNewTurn`), left it to
 * us (`promptRequired`: no turn runs, send it as a prompt), or did not take it (`failed`, said in the chat).
 */
export type SteerAnswer = SteerOutcome | 'failed';

export type ChatEvent<T> = (listener: (e: T) => unknown) => Disposable;

/** The ops a session's transcript went through, in order (the webview applies the same ops). */
export interface TranscriptOpsEvent {
  sessionId: string;
  ops: readonly TranscriptOp[];
}

export interface TerminalOutputEvent {
  terminalId: string;
  /** Raw output (may contain ANSI sequences; the chat strips them). */
  data: string;
  exitStatus?: { exitCode: number | null; signal?: string | null };
  /** Its VS Code terminal opened (true) or closed (false); absent: unchanged. */
  open?: boolean;
}

/** A session as the backend reports it. The message queue is owned by the chat itself. */
export type BackendSessionView = Omit<SessionView, 'queue'>;

export interface BackendSessionSnapshot {
  view: BackendSessionView;
  transcript: Transcript;
}

/** Editor / environment actions the panel triggers; implemented with the VS Code API in hostUi.ts. */
export interface HostUi {
  copy(text: string): Promise<void>;
  insertAtCursor(code: string): Promise<void>;
  openInEditor(code: string, language?: string): Promise<void>;
  /** Opens only http(s)/mailto via openExternal (VS Code confirms) or a workspace file. */
  openLink(href: string): Promise<void>;
  openLocation(path: string, line?: number): Promise<void>;
  /** A chip's resource; with `content` (a chip's kind, lines or text) the host's switchboard.openMention opens it. */
  openResource(uri: string, content?: ResourceContent): Promise<void>;
  showProtocolLog(): Promise<void>;
  /** Opens the ACP Registry list (switchboard.addAgentFromRegistry). */
  addAgentFromRegistry(): Promise<void>;
  queryMentions(query: string, sessionId: string | undefined): Promise<MentionCandidate[]>;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** Shown to the user (non-modal). */
  showError(message: string): void;
}

export interface ChatBackend {
  // ---- state (read on every webview handshake) ----
  getAgents(): AgentView[];
  /** Agent a new session uses when none is chosen (a key of getAgents()). */
  getDefaultAgentId(): string | undefined;
  getSessions(): BackendSessionSnapshot[];
  getActiveSessionId(): string | undefined;
  getHistory(): HistoryItem[];
  /** Output of terminals that tool calls embed (bounded by the host's terminal buffers). */
  getTerminals(): TerminalSnapshot[];

  // ---- actions from the panel ----
  /**
   * Starts a session (spawns / reuses the agent) and makes it active. Resolves with its id. Rejects with
   * AuthRequiredError when the agent needs sign-in first (its methods are then shown in the chat);
   * `afterSignIn` runs with the session opened once the user has signed in.
   */
  newSession(agentId?: string, afterSignIn?: (sessionId: string) => void): Promise<string>;
  selectSession(sessionId: string): void;
  closeSession(sessionId: string): Promise<void>;
  /**
   * Sends a prompt (ACP session/prompt). The backend converts mentions to `resource` (agent supports
   * embeddedContext; read from live buffers) or `resource_link`, and images to image blocks.
   * Resolves when the turn ends. The chat only calls it when the session's turn is idle: it owns the queue.
   */
  sendPrompt(sessionId: string, prompt: ComposerPrompt): Promise<void>;
  /** Sends the message into the running turn (agents that steer); the chat sends or keeps what comes back unsent. */
  steer?(sessionId: string, prompt: ComposerPrompt): Promise<SteerAnswer>;
  /** session/cancel; the backend marks the turn cancelled and answers pending permissions with cancelled. */
  cancel(sessionId: string): Promise<void>;
  setMode(sessionId: string, modeId: string): Promise<void>;
  /** Legacy `session/set_model`. */
  setModel(sessionId: string, modelId: string): Promise<void>;
  setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void>;
  answerPermission(sessionId: string, requestId: string, answer: PermissionAnswer): void;
  answerElicitation(sessionId: string, requestId: string, answer: ElicitationAnswer): void;
  dismissError(sessionId: string): void;
  /** The prompt of the session's failed turn (its error is `retryable`), for "Retry". */
  failedPrompt?(sessionId: string): ComposerPrompt | undefined;
  /**
   * Unstable session/fork, opened as a new active tab (resolves with its id). `fromItemId`: a user message;
   * the tab shows the transcript up to its turn. A failure is shown in the original session's banner.
   */
  forkSession(sessionId: string, fromItemId?: string): Promise<string | undefined>;
  /** session/set_title where the agent supports it, else a local title; kept across reloads. */
  renameSession(sessionId: string, title: string): Promise<void>;
  restartAgent(agentId: string): Promise<void>;
  authenticate(agentId: string, methodId: string): Promise<void>;
  /** Signs out where the agent supports it (`logout`) and forgets the secrets kept for it. */
  logout(agentId: string): Promise<void>;
  /** Model provider settings (unstable providers/*); the outcome shows in `AgentView.providers`, never as a rejection. */
  providerAction(agentId: string, action: ProviderAction): Promise<void>;
  refreshHistory(): Promise<void>;
  openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void>;
  deleteHistory(historyId: string): Promise<void>;
  /** Opens the diff editor for a tool call's diff. */
  openDiff(sessionId: string, toolCallId: string, path: string): Promise<void>;
  /**
   * Opens the file of a file plan (plan_update of type "file") in an editor. Rejects with the reason, said on
   * the plan's card: not a file: URI, a relative one, a missing file, or refused by the file-access rules.
   */
  openPlanFile(sessionId: string, planId: string): Promise<void>;
  /** Shows the VS Code terminal of a terminal card; one already closed is reported closed (`open: false`). */
  openTerminal(sessionId: string, terminalId: string): Promise<void>;
  /** Changed files of the session (listed in `SessionView.changedFiles`): open the diff, keep or undo one. */
  changedFileAction(sessionId: string, key: string, action: 'open' | 'keep' | 'undo'): Promise<void>;
  /** Keep All / Undo All of the session's pending changed files. */
  changedFilesAll(sessionId: string, action: 'keep' | 'undo'): Promise<void>;
  /** The checkpoint of a user message: preview, restore, undo the restore, or a file's diff; answers what the chat shows. */
  checkpoint?(sessionId: string, itemId: string, action: CheckpointAction): Promise<CheckpointView>;
  /**
   * Optional: @-mention candidates. When absent the chat uses its own VS Code provider (workspace files,
   * folders, open editors, the active selection).
   */
  queryMentions?(query: string, sessionId: string | undefined): Promise<MentionCandidate[]>;

  // ---- events ----
  onDidChangeAgents: ChatEvent<void>;
  /** A message went nowhere (a mention could not be read, or it was over the budget): it goes back into the composer. */
  onDidRefusePrompt?: ChatEvent<{ sessionId: string; prompt: ComposerPrompt }>;
  /** A session's view changed (turn state, permissions, elicitations, capabilities, title...) or appeared. */
  onDidChangeSession: ChatEvent<BackendSessionView>;
  onDidCloseSession: ChatEvent<string>;
  onDidChangeActiveSession: ChatEvent<string | undefined>;
  onDidApplyOps: ChatEvent<TranscriptOpsEvent>;
  onDidChangeHistory: ChatEvent<{ loading?: boolean }>;
  onDidTerminalOutput: ChatEvent<TerminalOutputEvent>;
}
