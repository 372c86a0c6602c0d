// Input and output shapes of the diff-review module. Plain data and small interfaces only (no `vscode`
// import) so the pure parts and their unit tests run in plain Node, and adapters.ts can connect the
// permission broker and the fs bridge to them without depending on their internals.
import type { ChangedFileFacts } from '../../shared/chatState';

/** A permission option as ACP sends it (`kind`: allow_once | allow_always | reject_once | reject_always). */
export interface PermissionOptionLike {
  optionId: string;
  name: string;
  kind: string;
}

/** A `session/request_permission` that carries a diff, waiting for the user's answer. */
export interface PendingPermissionDiff {
  sessionId: string;
  /** The JSON-RPC id of the permission request (may be 0). */
  requestId: string | number;
  /** Absolute path of the file the agent wants to write. */
  path: string;
  /** The agent's idea of the current content; null = the agent creates a new file. */
  oldText: string | null;
  newText: string;
  options: readonly PermissionOptionLike[];
  /** Answers the request. Called at most once by this module. */
  answer(optionId: string): void;
  /** Tool call title, shown in the diff editor's title when given. */
  title?: string;
}

/** One write the fs bridge applied during a turn. */
export interface RecordWriteInput {
  sessionId: string;
  turnId: string;
  /** File URI string or absolute path. */
  uri: string;
  /** Content before the write, including unsaved buffer text; null = the file did not exist. */
  before: string | null;
  /** Content written; null = the write deleted the file. */
  after: string | null;
}

/** A file the agent changed by itself (its own tools), seen via tool-call locations or file events. */
export interface AgentTouchedFileInput {
  sessionId: string;
  turnId: string;
  uri: string;
  /**
   * Content before the agent touched it when known (a snapshot); null = did not exist;
   * undefined = unknown (then the change can be kept but not undone).
   */
  before?: string | null;
  /**
   * True when the caller knows the file changed (a file-system event). Without it and without a known
   * `before`, the first sighting only snapshots the file (e.g. a tool call's location that may be a
   * mere read) and a later call records it if the content moved.
   */
  changed?: boolean;
  /** The diff a tool call sent for this file: its `oldText` is the before when the file now holds its `newText`. */
  diff?: { oldText: string | null; newText: string };
}

/** A changed file as the diff review tracks it (the chat shows it as a ChangedFileView); plain JSON. */
export interface ChangedFileSummary extends ChangedFileFacts {
  sessionId: string;
  turnId: string;
  uri: string;
}

/** The logging surface this module needs (a `vscode.LogOutputChannel` satisfies it). */
export interface DiffLogger {
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
}

/** The subset of `vscode.Memento` used for persistence (workspaceState satisfies it). */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}
