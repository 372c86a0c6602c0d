// The whole-turn table's row (WholeTurnRow: how the scripted model drives one real agent and what Switchboard
// must see), what one run of the scenario leaves for a row's `more` (Turn), and the tool call fields they read.
import type { InitializeResult, NewSessionResult, PromptResult, SessionUpdate } from '../../../src/acp';
import type { ApiHandler, Step } from '../../fixtures/modelEndpoint/endpoint';
import type { RealAgentRecipe } from '../../fixtures/realAgents/recipe';
import type { TurnClient } from '../turnClient';

export type Json = Record<string, unknown>;

/** The fields of tool_call / tool_call_update the assertions read. */
export interface ToolUpdate {
  readonly sessionUpdate: string;
  readonly toolCallId: string;
  readonly title?: string;
  readonly kind?: string;
  readonly status?: string;
  readonly rawInput?: Json;
  readonly rawOutput?: unknown;
  readonly locations?: ReadonlyArray<{ path: string }>;
  readonly content?: ReadonlyArray<{ type: string; content?: { text?: string }; path?: string; oldText?: string | null; newText?: string; terminalId?: string }>;
  readonly _meta?: Json;
}

/** What one run of the scenario left for `more` to read. */
export interface Turn {
  readonly c: TurnClient;
  readonly init: InitializeResult;
  readonly session: NewSessionResult;
  readonly result: PromptResult;
  /** The session/update payloads from the prompt on. */
  readonly updates: readonly SessionUpdate[];
  /** How many fs/* requests had arrived when each permission request came. */
  readonly fsCallsAtPermission: readonly number[];
}

export interface WholeTurnRow {
  readonly recipe: RealAgentRecipe;
  readonly handlers: () => ApiHandler[];
  readonly title: string;
  /** The project's files before the turn (relative path → content). */
  readonly files: Readonly<Record<string, string>>;
  /** The scripted model's steps, one per main request (paths may be absolute in the project folder). */
  readonly script: (cwd: string) => Step[];
  readonly prompt: string;
  readonly expect: {
    readonly version?: string;
    readonly authMethods?: readonly string[];
    /** session/new's current mode with permissions "ask". */
    readonly modeId?: string;
    /** All streamed agent text, joined. */
    readonly text: string;
    readonly thought?: string;
    /** Files after the turn (relative path → content). */
    readonly files: Readonly<Record<string, string>>;
    /** Distinct tool call ids. */
    readonly toolCalls: number;
    /** false where a call is announced only inside its permission request (no tool_call). */
    readonly everyCallAnnounced?: boolean;
    /**
     * [title, kind, status] of each tool_call as first announced, in order. Where the agent announces a call
     * either while its input streams or once it is whole (its timing, not ours), the title is the list of both.
     */
    readonly announced?: ReadonlyArray<readonly [string | readonly string[], string, string]>;
    /** The kind of each permission request, in order. */
    readonly asks: readonly string[];
    readonly askTitles?: readonly string[];
    /** Which of the announced tool calls (index) each permission request is for. */
    readonly askCalls?: readonly number[];
    /** [optionId, name, kind] of the first permission request's options. */
    readonly options?: ReadonlyArray<readonly [string, string, string]>;
    /** [method, path relative to the project] of every fs/* request, in order. */
    readonly fsCalls?: ReadonlyArray<readonly [string, string]>;
  };
  /** A process the agent detaches (Cline's hub daemon), by a word of its command line: logged, ended by stop. */
  readonly daemon?: string;
  readonly more?: (turn: Turn) => void | Promise<void>;
}
