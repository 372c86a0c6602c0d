// View-model types of the chat panel, shared by the host (src/chat) and the webview (webview-ui).
// Plain JSON data only: everything here crosses postMessage. The transcript itself is in ./transcript.
// The host (through ChatBackend) is the source of truth for all of it; the webview only renders it and
// keeps purely visual state (drafts, open tab, collapsed sections) in its own `setState`.

import type { ToolCallContentItem, ToolKind, ToolLocation, Transcript } from './transcript';

export type AgentStatus = 'stopped' | 'starting' | 'ready' | 'crashed' | 'auth_required';

/** How an agent asks to be signed in (ACP `authMethods`, with the Switchboard-known variants). */
export interface AuthMethodView {
  id: string;
  name: string;
  description?: string;
  /** 'agent' (call authenticate), 'terminal' (run a login command), 'env_var' (ask for a secret), or other. */
  kind: string;
  /** For 'env_var': the variable names asked for. */
  vars?: string[];
}

export interface AgentCrash {
  message: string;
  exitCode?: number | null;
  signal?: string | null;
  /** The agent's last stderr lines, oldest first (the host bounds the count). */
  stderrTail: string[];
}

export interface AgentView {
  /** Key of `switchboard.agents` or a preset name; also the display name. */
  id: string;
  name: string;
  status: AgentStatus;
  /** Present when status is 'crashed' (or the last start failed). */
  crash?: AgentCrash;
  /** Present when status is 'auth_required'. */
  authMethods?: AuthMethodView[];
  /** Why the last sign-in attempt failed (status 'auth_required'). */
  authError?: string;
  /** What signing in will retry ("opens the session you asked for"): the user asked for something that needs it. */
  afterSignIn?: string;
  /** Short message shown next to the status (e.g. "starting npx…"). */
  detail?: string;
  /** Who the agent says it is signed in as (auth/status_update, Claude's _auth/status_update). */
  account?: { signedIn?: boolean; label: string; detail?: string };
  /** The agent's icon as an inert data: URI (agents installed from the ACP Registry). */
  icon?: string;
  /** A remote agent (connected to by URL): its crash banner offers Reconnect instead of Restart. */
  remote?: boolean;
  /** Settings changed since the running agent started (`command`, `args`, `env`, `url`, `headers`): a restart applies them. */
  settingsToApply?: string[];
  /** The agent's Model provider settings; present only while it runs and advertises `providers` (unstable). */
  providers?: AgentProvidersView;
}

/** One LLM provider of the agent (unstable providers/list). */
export interface ProviderView {
  providerId: string;
  /** API types the agent accepts for it (anthropic, openai, azure, vertex, bedrock, or custom). */
  supported: string[];
  /** The agent says it cannot be disabled: Disable is not offered. */
  required: boolean;
  /** Where it routes now; null: disabled. */
  current: { apiType: string; baseUrl: string } | null;
  /** The choice Switchboard keeps and applies again at each start; header values stay on the host. */
  saved?: { disabled: true } | { apiType: string; baseUrl: string; headerNames: string[] };
}

export interface AgentProvidersView {
  /** Undefined until providers/list has answered. */
  providers?: ProviderView[];
  /** A providers/* request is running. */
  busy?: boolean;
  /** The last failure (refused before sending, rejected by the agent, an unreadable list), said in the chat. */
  error?: string;
  /** The last change that worked. */
  notice?: string;
}

/** A header of a provider choice; no `value`: keep the value stored for that name. */
export interface ProviderHeaderInput {
  name: string;
  value?: string;
}

/** What the Model provider settings ask of the host. */
export type ProviderAction =
  | { kind: 'refresh' }
  | { kind: 'set'; providerId: string; apiType: string; baseUrl: string; headers: ProviderHeaderInput[] }
  | { kind: 'disable'; providerId: string }
  | { kind: 'dismiss' };

/** What the composer may attach for this session (from the agent's promptCapabilities). */
export interface SessionCapabilities {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
  /** The agent can load past sessions (session/load) or list them. */
  loadSession?: boolean;
  /** The agent can fork the session (unstable session/fork). */
  fork?: boolean;
  /** The agent stores session titles (unstable session/set_title); otherwise a rename is kept locally. */
  title?: boolean;
  /** The agent takes messages into its running turn (steering): the composer offers "Steer" while it works. */
  steering?: boolean;
}

/** What Enter does while a turn runs (`switchboard.enterWhileRunning`); Steer applies only where the agent steers. */
export type EnterWhileRunning = 'queue' | 'steer';

export type TurnState = 'idle' | 'running' | 'cancelling';

export interface PermissionOptionView {
  optionId: string;
  name: string;
  kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | string;
}

export interface PendingPermission {
  /** Host-assigned id of the pending request (the JSON-RPC id may be 0; the host stringifies it). */
  requestId: string;
  toolCallId?: string;
  /** A subagent's request: the child session ids from the session's own child down to the one that asks. */
  subagentPath?: string[];
  title: string;
  toolKind?: ToolKind;
  locations?: ToolLocation[];
  /** Diff / terminal / text preview of what the tool will do. */
  content?: ToolCallContentItem[];
  /** e.g. the shell command for `execute`. */
  command?: string;
  options: PermissionOptionView[];
}

/** A property of an elicitation form schema (MCP-style restricted JSON Schema). */
export type ElicitationProperty =
  | {
      type: 'string';
      title?: string;
      description?: string;
      minLength?: number;
      maxLength?: number;
      format?: string;
      default?: string;
      enum?: string[];
      enumNames?: string[];
      oneOf?: { const: string; title?: string }[];
    }
  | { type: 'number' | 'integer'; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
  | { type: 'boolean'; title?: string; description?: string; default?: boolean }
  | {
      type: 'array';
      title?: string;
      description?: string;
      minItems?: number;
      maxItems?: number;
      items: { type?: 'string'; enum?: string[]; enumNames?: string[]; anyOf?: { const: string; title?: string }[] };
      default?: string[];
    };

export interface ElicitationSchema {
  type: 'object';
  properties: Record<string, ElicitationProperty>;
  required?: string[];
}

export type ElicitationValue = string | number | boolean | string[];

export type PendingElicitation =
  | { requestId: string; mode: 'form'; message: string; schema: ElicitationSchema }
  | { requestId: string; mode: 'url'; message: string; url: string };

export type ElicitationAnswer =
  | { action: 'accept'; content?: Record<string, ElicitationValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A message typed while the agent was working; sent when the turn ends (host-owned queue). */
export interface QueuedMessage {
  id: string;
  text: string;
  mentions: MentionRef[];
  images: ImageAttachment[];
}

export interface SessionError {
  message: string;
  detail?: string;
  /** A turn failed (the agent's error, a crash, a dropped connection): "Retry" sends its prompt again. */
  retryable?: boolean;
}

/** What is known of a file changed during a turn (shared by the host's diff review and the chat). */
export interface ChangedFileFacts {
  /** The host's key of the change (stable while it is pending). */
  key: string;
  /** Absolute path. */
  path: string;
  status: 'created' | 'modified' | 'deleted';
  added: number;
  removed: number;
  /** False when the line counts could not be computed (binary, too large, unreadable). */
  countsKnown: boolean;
  /** The user edited the file after the agent wrote it. */
  conflict: boolean;
  /** False when the content before the change is unknown (can be kept, not undone). */
  undoable: boolean;
  /** Why counts or undo are unavailable, for display. */
  note?: string;
}

/** A file changed during a turn and still pending review (Keep / Undo); plain JSON. */
export interface ChangedFileView extends ChangedFileFacts {
  /** Workspace-relative path for display. */
  name: string;
}

/** The standing instructions (switchboard.instructions / instructionsFile) and whether they reach the agent. */
export interface InstructionsView {
  /** Sent as the session's systemPrompt. */
  sent: boolean;
  /** The agent takes a systemPrompt at all. */
  supported: boolean;
  sources: string[];
  /** What could not be used (a missing file, not UTF-8, cut to the cap). */
  problems: string[];
}

/** Everything about a session except its transcript. */
export interface SessionView {
  sessionId: string;
  agentId: string;
  title?: string;
  turn: TurnState;
  capabilities: SessionCapabilities;
  permissions: PendingPermission[];
  elicitations: PendingElicitation[];
  queue: QueuedMessage[];
  /** What Enter does while a turn runs; set when the agent supports steering. */
  enterWhileRunning?: EnterWhileRunning;
  /** Last error of this session (failed prompt, failed load...), shown as a dismissable banner. */
  error?: SessionError;
  /** The session is loading (session/load replay in progress). */
  loading?: boolean;
  /** Files changed by this session's turns that are still pending review. */
  changedFiles?: ChangedFileView[];
  /** The session's cwd and additionalDirectories: paths under them are shown relative (a plan file). */
  folders?: string[];
  /** Present when the user set standing instructions. */
  instructions?: InstructionsView;
}

export interface SessionSnapshot {
  view: SessionView;
  transcript: Transcript;
}

export interface HistoryItem {
  /** Id in the history list (the host's, unique across sources). */
  id: string;
  sessionId: string;
  agentId: string;
  title: string;
  updatedAt?: string;
  /** 'local' = Switchboard's own transcript store; 'agent' = from session/list. */
  source: 'local' | 'agent';
  cwd?: string;
  canLoad: boolean;
  canResume: boolean;
  canDelete: boolean;
}

/** Something the user can @-mention. The host decides whether it goes out as `resource` or `resource_link`. */
export interface MentionRef {
  kind: 'file' | 'folder' | 'editor' | 'selection' | 'symbol' | ContextMentionKind | AttachedTextKind;
  /**
   * What it names: a file or folder URI; for `problems` and `changes` a file (that file's) or a folder (all
   * of it); for `terminal` and `session` a `switchboard-terminal:` / `switchboard-session:` id.
   */
  uri: string;
  /** Text shown in the composer after `@`. */
  label: string;
  /** 1-based inclusive lines, for selections / symbols. */
  range?: { startLine: number; endLine: number };
  /** What the mention carries itself (a terminal's selection, a diff, a problem), sent as is instead of reading `uri`. */
  text?: string;
  /** Added from the editor (Add to Chat): a chip that goes out whether or not the message names it. */
  attached?: boolean;
}

/** Mentions whose content was captured when they were added (Add to Chat from a terminal, Source Control, a problem). */
export type AttachedTextKind = 'terminalSelection' | 'diff' | 'diagnostic';

/** Mentions of what the editor knows beyond files: the workspace's problems, Git changes, a terminal's last command, an earlier session. */
export type ContextMentionKind = 'problems' | 'changes' | 'terminal' | 'session';

export interface MentionCandidate extends MentionRef {
  /** Secondary text (workspace-relative folder, "selection in foo.ts"...). */
  detail?: string;
}

export interface ImageAttachment {
  id: string;
  mimeType: string;
  /** base64, no `data:` prefix. */
  data: string;
  name?: string;
}

export interface TerminalSnapshot {
  terminalId: string;
  /** Output so far (ANSI stripped, possibly truncated at the front by the host). */
  output: string;
  truncated?: boolean;
  exitStatus?: { exitCode: number | null; signal?: string | null };
  /** Its VS Code terminal is still open (the card offers "Open terminal"); false once closed or forgotten. */
  open?: boolean;
}

/** Full state sent on every ready handshake (first load, reload, re-shown view). */
export interface ChatSnapshot {
  agents: AgentView[];
  defaultAgentId?: string;
  sessions: SessionSnapshot[];
  activeSessionId?: string;
  /** A new session the user asked for that has not opened yet: the next message goes to it. */
  starting?: StartingSession;
  history: HistoryItem[];
  historyLoading?: boolean;
  terminals: TerminalSnapshot[];
}

/** A `newSession` request of the webview, by its id, that has not opened its session yet. */
export interface StartingSession {
  requestId: string;
  agentId?: string;
}
