// The transcript model: what a session looks like after its `session/update` stream has been reduced.
// Produced by the pure reducer in src/acp/session, stored by the chat host, rendered by the webview.
// Plain JSON data only (it crosses postMessage and is persisted), no classes, no functions.
// The webview knows ACP only through these types.

/** A content block as the transcript keeps it. Unknown block types are kept raw, never dropped. */
export type TranscriptContent =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data?: string; uri?: string }
  | { type: 'audio'; mimeType: string; data?: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string; mimeType?: string; size?: number }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { type: 'unknown'; raw: unknown };

export type ToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other';

export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export interface ToolLocation {
  path: string;
  /** 1-based line, when the agent gave one. */
  line?: number;
}

/** Content produced by a tool call. `diff.oldText` null means a new file. */
export type ToolCallContentItem =
  | { type: 'content'; content: TranscriptContent }
  | { type: 'diff'; path: string; oldText: string | null; newText: string }
  | { type: 'terminal'; terminalId: string }
  | { type: 'unknown'; raw: unknown };

export interface PlanEntry {
  content: string;
  priority: 'high' | 'medium' | 'low' | string;
  status: 'pending' | 'in_progress' | 'completed' | string;
}

export interface AvailableCommand {
  name: string;
  description: string;
  /** Hint shown when the command takes free-form input. */
  inputHint?: string;
}

export interface SessionMode {
  id: string;
  name: string;
  description?: string;
}

export interface ConfigSelectValue {
  value: string;
  name: string;
  description?: string;
  /** Group label when the agent grouped its options. */
  group?: string;
}

export type ConfigOption =
  | {
      kind: 'select';
      id: string;
      name: string;
      description?: string;
      /** 'mode' | 'model' | 'thought_level' | other string the agent chose. */
      category?: string;
      currentValue: string;
      options: ConfigSelectValue[];
    }
  | {
      kind: 'boolean';
      id: string;
      name: string;
      description?: string;
      category?: string;
      currentValue: boolean;
    };

/** Legacy (pre config-options) model list: `models` in session/new, changed with `session/set_model`. */
export interface LegacyModels {
  currentModelId: string;
  availableModels: { modelId: string; name: string; description?: string }[];
}

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/**
 * One rate-limit window an agent reports (Claude: `usage_update._meta["_claude/rateLimit"]`), e.g. the
 * 5-hour or weekly window. `utilization` is a fraction (0..1); `resetsAt` is epoch milliseconds.
 */
export interface RateLimitWindow {
  window: string;
  status: string;
  utilization?: number;
  resetsAt?: number;
}

/** Token counts of one turn (ACP's unstable `PromptResponse.usage`). */
export interface TurnUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'max_turn_requests' | 'refusal' | 'cancelled' | string;

/**
 * A command's output that the agent ran itself (no `terminal/create`): streamed through Zed's
 * `_meta.terminal_output` / `terminal_exit` (Claude, Codex), or given whole in `rawOutput` (Codex's
 * `formatted_output` / `stdout`). Raw text, at most MAX_TOOL_OUTPUT characters (the tail); the chat strips ANSI.
 */
export interface ToolOutput {
  text: string;
  truncated: boolean;
  exitCode?: number | null;
}

/** The most terminal output the chat keeps per terminal or tool call (the tail is kept). */
export const MAX_TOOL_OUTPUT = 200_000;

/** One entry of the transcript, in the order it first appeared. */
export type TranscriptItem =
  /** `steered`: sent into a running turn (steering), shown where the agent took it. */
  | { kind: 'user_message'; id: string; messageId?: string; content: TranscriptContent[]; steered?: true }
  | { kind: 'agent_message'; id: string; messageId?: string; content: TranscriptContent[] }
  | { kind: 'thought'; id: string; messageId?: string; content: TranscriptContent[] }
  | {
      kind: 'tool_call';
      id: string;
      toolCallId: string;
      title: string;
      /** The agent's programmatic tool name (ToolCall.name), e.g. "Bash" or "apply_patch". */
      toolName?: string;
      toolKind: ToolKind;
      /** The kind string the agent sent when it is not one we know (shown, not dropped). */
      rawKind?: string;
      status: ToolCallStatus;
      content: ToolCallContentItem[];
      locations: ToolLocation[];
      rawInput?: unknown;
      rawOutput?: unknown;
      /** What a command run inside the agent printed (streamed terminal output, or its rawOutput). */
      output?: ToolOutput;
      /**
       * The turn ended, for this reason, while the call was still pending or in progress: the agent never
       * reported its result (Codex does that for some fast shell commands), so it is no longer shown running.
       * A session/load replay that ends with such calls marks them `end_turn`; a turn that failed, `error`.
       */
      unfinished?: StopReason;
    }
  | { kind: 'plan'; id: string; planId?: string; entries: PlanEntry[]; markdown?: string; fileUri?: string }
  | { kind: 'notice'; id: string; severity: 'info' | 'warning' | 'error' | string; title: string; description?: string }
  | {
      kind: 'compaction';
      id: string;
      compactionId: string;
      status: string;
      summary: TranscriptContent[];
      error?: string;
    }
  /**
   * A child session the agent runs for this one (unstable subagents), nested where it was announced: its
   * labels, work state and the child's own transcript, reduced by the same reducer (its ops arrive as `nest`).
   */
  | SubagentItem
  /** A message sent to or received from another session (unstable `session_message`). */
  | { kind: 'session_message'; id: string; messageId: string; senderSessionId?: string; recipientSessionId?: string; content: TranscriptContent[] }
  | {
      kind: 'turn_end';
      id: string;
      stopReason: StopReason;
      /** true when the turn produced no agent content */
      empty: boolean;
      /** The turn's token counts, when the agent sent them with its prompt response. */
      usage?: TurnUsage;
    }
  | { kind: 'error'; id: string; message: string; detail?: string }
  /** An update Switchboard does not understand, kept with its raw JSON. */
  | { kind: 'unsupported'; id: string; updateType: string; raw: unknown };

/**
 * A child session's current work: `running`, `idle` (with why its work stopped and its usage),
 * `requires_action` (it waits for the user), `unknown`, or a state a newer agent names.
 */
export interface SubagentWorkState {
  state: 'running' | 'idle' | 'requires_action' | 'unknown' | string;
  stopReason?: StopReason | 'error';
  /** The failure's message, when the work stopped with `error`. */
  error?: string;
  usage?: TurnUsage;
}

export interface SubagentItem {
  kind: 'subagent';
  id: string;
  /** The child's own session id. */
  sessionId: string;
  title?: string;
  description?: string;
  cwd?: string;
  additionalDirectories?: string[];
  state?: SubagentWorkState;
  /** The agent lets the client cancel the child's current work (`capabilities.cancel`). */
  cancellable?: true;
  /** The tool call that started the child, when the agent names it (claude-agent-acp: the Task call's id). */
  toolCallId?: string;
  /** Updates came for a child the agent never announced ("Unknown subagent"). */
  unannounced?: true;
  /** The child's own messages, tool calls and messages between sessions. */
  transcript: Transcript;
}

export interface Transcript {
  sessionId: string;
  title?: string;
  updatedAt?: string;
  items: TranscriptItem[];
  commands: AvailableCommand[];
  modes?: { currentModeId: string; availableModes: SessionMode[] };
  configOptions: ConfigOption[];
  models?: LegacyModels;
  usage?: Usage;
  /** The latest report of each rate-limit window, only when the agent sends them. */
  rateLimits?: RateLimitWindow[];
}

export function emptyTranscript(sessionId: string): Transcript {
  return { sessionId, items: [], commands: [], configOptions: [] };
}
