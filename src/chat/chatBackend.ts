// The ONLY interface between the chat panel (src/chat + webview-ui) and the rest of the extension: a few
// narrow ports, each implemented in src/host by the object that does the work (named beside each port).
// A message handler resolves its session once (`sessions.get(tabId)`) and calls it.
// `tabId` is the chat's key of a session tab; the agent's own session id never crosses this boundary.
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
  tabId: string;
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
  /** A chip that names a resource and nothing more (no lines, kind or text of its own): a link, a file, a document. */
  openResource(uri: string): Promise<void>;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** Shown to the user (non-modal). */
  showError(message: string): void;
}

/** A chip with lines, a kind or text of its own (a selection, a problem, a change, a terminal's output, a session). */
export type MentionOpenRequest = { uri: string } & ResourceContent;

/**
 * Switchboard's own features the panel opens, handed down at construction: src/host/startup builds it from
 * the objects behind the matching commands, so the chat never runs one of our own commands.
 */
export interface HostActions {
  /** Opens what the chip names: a file at its lines, a change as a diff, its text read-only (host/context). */
  openMention(request: MentionOpenRequest): Promise<void>;
  /** The protocol trace channel (switchboard.showProtocolLog does the same). */
  showProtocolLog(): void;
  /** The ACP Registry's list of agents (switchboard.addAgentFromRegistry does the same). */
  addAgentFromRegistry(): Promise<void>;
}

/**
 * How a prompt's turn ended: `signInRequired` when it stopped for the agent's sign-in (`shown`: the prompt
 * is in the transcript already, so sending it again after sign-in does not record it twice).
 */
export type PromptOutcome = { signInRequired: false } | { signInRequired: true; shown: boolean };

/** One open session, as the chat acts on it (implemented by the host's Session). */
export interface ChatSession {
  readonly agentId: string;
  readonly transcript: Transcript;
  /** The prompt of the session's failed turn (its error is `retryable`), for "Retry". */
  readonly failedPrompt: ComposerPrompt | undefined;
  /**
   * Sends a prompt (ACP session/prompt): mentions become `resource` (agent supports embeddedContext; read
   * from live buffers) or `resource_link`, images image blocks. Resolves when the turn ends. The chat only
   * calls it when the session's turn is idle: it owns the queue (and the messages waiting for sign-in).
   */
  prompt(prompt: ComposerPrompt, options?: { shownAlready?: boolean }): Promise<PromptOutcome>;
  /** Sends the message into the running turn (agents that steer); the chat sends or keeps what comes back unsent. */
  steer(prompt: ComposerPrompt): Promise<SteerAnswer>;
  /** session/cancel; the turn shows cancelling and pending permissions are answered cancelled. */
  cancel(): void;
  /** session/cancel on a child session (subagent) nested in this one, where the agent allows it; the turn goes on. */
  cancelSubagent(subagentSessionId: string): Promise<void>;
  setMode(modeId: string): Promise<void>;
  /** Legacy `session/set_model`. */
  setModel(modelId: string): Promise<void>;
  setConfigOption(configId: string, value: string | boolean): Promise<void>;
  dismissError(): void;
}

/** The open sessions: their views and transcripts, the active tab, and what changes in them (SessionRegistry). */
export interface SessionsPort {
  get(tabId: string): ChatSession | undefined;
  snapshots(): BackendSessionSnapshot[];
  activeTabId(): string | undefined;
  /** Makes an open tab the active one (an unknown tab is ignored). */
  select(tabId: string): void;
  /** A session's view changed (turn state, permissions, elicitations, capabilities, title...) or appeared. */
  onDidChangeSession: ChatEvent<BackendSessionView>;
  onDidCloseSession: ChatEvent<string>;
  onDidChangeActiveSession: ChatEvent<string | undefined>;
  onDidApplyOps: ChatEvent<TranscriptOpsEvent>;
  /** A message went nowhere (a mention could not be read, or it was over the budget): it goes back into the composer. */
  onDidRefusePrompt: ChatEvent<{ tabId: string; prompt: ComposerPrompt }>;
}

/** How sessions open and close (SessionLifecycle). */
export interface LifecyclePort {
  /**
   * Starts a session (spawns / reuses the agent; the default agent when none is named) and makes it active.
   * Resolves with its tab. Rejects with AuthRequiredError when the agent needs sign-in first (its methods are
   * then shown in the chat); AgentsPort.onDidSignIn says when to open it again.
   */
  open(agentId?: string): Promise<string>;
  close(tabId: string): Promise<void>;
  /**
   * Unstable session/fork, opened as a new active tab (resolves with it). `fromItemId`: a user message; the
   * tab shows the transcript up to its turn. A failure is shown in the original session's banner.
   */
  fork(tabId: string, fromItemId?: string): Promise<string | undefined>;
  /** session/set_title where the agent supports it, else a local title; kept across reloads. */
  rename(tabId: string, title: string): Promise<void>;
  openHistory(historyId: string, mode: 'load' | 'resume'): Promise<void>;
}

/** The configured agents: their state, sign-in and restarts (AgentControl). */
export interface AgentsPort {
  views(): AgentView[];
  /** Agent a new session uses when none is chosen (a key of views()). */
  defaultAgentId(): string | undefined;
  restart(agentId: string): Promise<unknown>;
  authenticate(agentId: string, methodId: string): Promise<void>;
  /** Signs out where the agent supports it (`logout`) and forgets the secrets kept for it. */
  logout(agentId: string): Promise<void>;
  onDidChange: ChatEvent<void>;
  /** The user signed in to the agent: what waited for it (a message, a new session) goes now. */
  onDidSignIn: ChatEvent<string>;
}

/** Model provider settings (unstable providers/*) (AgentProviders). The outcome shows in `AgentView.providers`, never as a rejection. */
export interface ProvidersPort {
  run(agentId: string, action: ProviderAction): Promise<void>;
}

/** The history list: local transcripts and the agents' session/list (SessionHistory). */
export interface HistoryPort {
  list(): HistoryItem[];
  refresh(): Promise<void>;
  delete(historyId: string): Promise<void>;
  onDidChange: ChatEvent<{ loading?: boolean }>;
}

/** Terminals that tool calls embed (SessionTerminals). */
export interface TerminalsPort {
  /** Their output so far (bounded by the host's terminal buffers). */
  snapshots(): TerminalSnapshot[];
  /** Shows the VS Code terminal of a terminal card; one already closed is reported closed (`open: false`). */
  reveal(tabId: string, terminalId: string): void;
  onDidOutput: ChatEvent<TerminalOutputEvent>;
}

/** A session's files in the editor: diffs, changed files, plan files (SessionFiles). */
export interface FilesPort {
  /** Opens the diff editor for a tool call's diff. */
  openDiff(tabId: string, toolCallId: string, path: string): Promise<void>;
  /** Changed files of the session (listed in `SessionView.changedFiles`): open the diff, keep or undo one. */
  fileAction(tabId: string, key: string, action: 'open' | 'keep' | 'undo'): Promise<void>;
  /** Keep All / Undo All of the session's pending changed files. */
  allFiles(tabId: string, action: 'keep' | 'undo'): Promise<void>;
  /**
   * Opens the file of a file plan (plan_update of type "file") in an editor. Rejects with the reason, said on
   * the plan's card: not a file: URI, a relative one, a missing file, or refused by the file-access rules.
   */
  openPlanFile(tabId: string, planId: string): Promise<void>;
}

/** The checkpoint of a user message (Checkpoints). */
export interface CheckpointsPort {
  /** Preview, restore, undo the restore, or a file's diff; answers what the chat shows. */
  act(tabId: string, itemId: string, action: CheckpointAction): Promise<CheckpointView>;
}

/** The chat's answers to permission and elicitation cards (RequestCards). */
export interface RequestsPort {
  answerPermission(requestId: string, answer: PermissionAnswer): void;
  answerElicitation(requestId: string, answer: ElicitationAnswer): void;
}

/** @-mention candidates: workspace files, folders, open editors, then the context groups (SessionMentions). */
export interface MentionsPort {
  query(query: string, tabId: string | undefined): Promise<MentionCandidate[]>;
}

/** Everything the chat talks to. */
export interface ChatBackend {
  readonly sessions: SessionsPort;
  readonly lifecycle: LifecyclePort;
  readonly agents: AgentsPort;
  readonly providers: ProvidersPort;
  readonly history: HistoryPort;
  readonly terminals: TerminalsPort;
  readonly files: FilesPort;
  readonly checkpoints: CheckpointsPort;
  readonly requests: RequestsPort;
  readonly mentions: MentionsPort;
}
