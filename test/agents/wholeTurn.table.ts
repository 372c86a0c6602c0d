// The whole-turn scenario's table: one row per real agent, with how the scripted model drives it and what
// Switchboard must see (the runner is wholeTurn.test.ts). The generic checks read `expect`; `more` holds the
// measured particulars of one agent (titles, raw inputs, what goes back to the model). Each row's comment
// says what the agent does over ACP, as measured against the pinned version.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { TranscriptState, type InitializeResult, type NewSessionResult, type PromptResult, type SessionUpdate } from '../../src/acp';
import { AnthropicApi, SIDE_TITLE } from '../fixtures/modelEndpoint/anthropic';
import type { ApiHandler, LoggedRequest, Step } from '../fixtures/modelEndpoint/endpoint';
import { GeminiApi } from '../fixtures/modelEndpoint/gemini';
import { openaiChat } from '../fixtures/modelEndpoint/openaiChat';
import { openaiResponses } from '../fixtures/modelEndpoint/openaiResponses';
import { claudeRecipe } from '../fixtures/realAgents/claude';
import { clineRecipe } from '../fixtures/realAgents/cline';
import { CODEX_MODEL, codex } from '../fixtures/realAgents/codex';
import { droidRecipe } from '../fixtures/realAgents/droid';
import { geminiRecipe } from '../fixtures/realAgents/gemini';
import { kiloRecipe } from '../fixtures/realAgents/kilo';
import { OPENCODE_LOGIN_METHOD, opencodeRecipe } from '../fixtures/realAgents/opencode';
import { QWEN_OPENAI_METHOD, qwenRecipe } from '../fixtures/realAgents/qwen';
import { pinned, type RealAgentRecipe } from '../fixtures/realAgents/recipe';
import type { TurnClient } from './turnClient';

type Json = Record<string, unknown>;

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

export function textOf(update: SessionUpdate): string {
  return 'content' in update && update.content && typeof update.content === 'object' && 'text' in update.content ? String(update.content.text) : '';
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The tool_call_updates of one call, in order. */
function updatesOf(c: TurnClient, id: string): ToolUpdate[] {
  return (c.updatesOf('tool_call_update') as unknown as ToolUpdate[]).filter((u) => u.toolCallId === id);
}

/**
 * The tool_call and its tool_call_updates for the (first) tool call of this kind, and the call as they leave it.
 * `updates: 'optional'` for a call the agent may never update (the caller checks how the chat shows that).
 */
export function toolCallOf(c: TurnClient, kind: string, updates: 'required' | 'optional' = 'required'): { start: Json; final: Json } {
  const all = c.updates.map((n) => n.update as unknown as Json);
  const start = all.find((u) => u.sessionUpdate === 'tool_call' && u.kind === kind);
  assert.ok(start, `a ${kind} tool_call\n${c.diagnostics()}`);
  const own = all.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === start.toolCallId);
  if (updates === 'required') assert.ok(own.length > 0, `a tool_call_update for ${String(start.toolCallId)}`);
  // Each update sets only its fields; Codex may send a last _meta-only update after the completing one.
  const final: Json = Object.assign({}, ...own.map((u) => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null))));
  return { start, final };
}

/** "kind" for chunks, "kind:tool:status" for tool calls (Gemini's ids are `<tool>__<tool>_<time>_<n>`), runs collapsed. */
export function geminiShape(updates: readonly SessionUpdate[]): string[] {
  const out: string[] = [];
  for (const u of updates) {
    if (u.sessionUpdate === 'available_commands_update') continue;
    const s = u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update' ? `${u.sessionUpdate}:${u.toolCallId.split('__')[0]}:${String(u.status)}` : u.sessionUpdate;
    if (out[out.length - 1] !== s) out.push(s);
  }
  return out;
}

/** The last content of a Gemini main request: the functionResponse the agent sends back to the model. */
function functionResponse(request: LoggedRequest): { name: string; response: { output: string } } {
  const contents = (request.body as { contents: Array<{ parts: Array<{ functionResponse?: { name: string; response: { output: string } } }> }> }).contents;
  const found = contents[contents.length - 1].parts.find((p) => p.functionResponse)?.functionResponse;
  assert.ok(found, `no functionResponse in ${request.path}`);
  return found;
}

/** The items of a Responses request's `input` of one type (what Codex sent back to the model). */
export function inputItems(body: unknown, type: string): Json[] {
  const input = (body as { input?: Json[] }).input ?? [];
  return input.filter((i) => i.type === type);
}

/** The OpenAI Chat agents' shared script: read, edit, a new file, a shell command, the answer. */
const LINES = 'line one\nline two\nline three\n';
const LINES_EDITED = 'line one\nline 2\nline three\n';
function chatScript(cwd: string, o: { shell: string; editOld: string; editNew: string; done: string }): Step[] {
  const notes = path.join(cwd, 'notes.txt');
  return [
    { text: 'Let me read the notes first.', tools: [{ read: { path: notes } }] },
    { text: 'Now the edit.', tools: [{ edit: { path: notes, oldText: o.editOld, newText: o.editNew } }] },
    { tools: [{ write: { path: path.join(cwd, 'added.txt'), content: 'brand new\n' } }] },
    { tools: [{ shell: { command: o.shell } }] },
    { text: o.done },
  ];
}

const CLAUDE_SHELL = 'echo shell-says-hi > shell.txt && cat shell.txt';
const GEMINI_OPTIONS = [
  ['proceed_always', 'Allow for this session', 'allow_always'],
  ['proceed_once', 'Allow', 'allow_once'],
  ['cancel', 'Reject', 'reject_once'],
] as const;
const CODEX_SHELL = 'echo shell-ran > shell.txt && wc -l notes.txt';

export const WHOLE_TURN: readonly WholeTurnRow[] = [
  // Claude Agent (claude-agent-acp, running the Claude Code CLI): a side request names the session
  // (session_info_update); thinking streams as agent_thought_chunk; each tool call is announced pending while
  // streamed (title "Read File" / "Edit" / "Terminal", rawInput {}; or already with its real title when the
  // input arrived whole before the announcement, seen under load), then titled with its rawInput, then
  // completed with content and rawOutput. It reads, writes and runs the shell itself (no fs/*, no terminal/*);
  // in mode "default" it asks for the edit and a writing command (not for a read-only one). A usage_update
  // follows each model response, the last with the cost.
  {
    recipe: claudeRecipe,
    handlers: () => [new AnthropicApi()],
    title: 'streams a thought and text, reads, edits and runs a shell command with permission, and ends the turn',
    files: { 'notes.txt': 'alpha\nbeta\ngamma\n' },
    script: (cwd) => [
      // A relative path: the endpoint resolves it against the cwd in the agent's environment block.
      { thought: 'The notes need one word changed.', text: 'Let me read the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: path.join(cwd, 'notes.txt'), oldText: 'beta', newText: 'BETA' } }] },
      { text: 'And a command.', tools: [{ shell: { command: CLAUDE_SHELL } }] },
      { text: 'All done: the shell said shell-says-hi.' },
    ],
    prompt: 'Change beta to BETA in notes.txt, then run a command',
    expect: {
      version: pinned('claude').version,
      modeId: 'default',
      text: 'Let me read the notes first.Now the edit.And a command.All done: the shell said shell-says-hi.',
      thought: 'The notes need one word changed.',
      files: { 'notes.txt': 'alpha\nBETA\ngamma\n', 'shell.txt': 'shell-says-hi\n' },
      toolCalls: 3,
      announced: [
        [['Read File', 'Read notes.txt'], 'read', 'pending'],
        [['Edit', 'Edit notes.txt'], 'edit', 'pending'],
        [['Terminal', CLAUDE_SHELL], 'execute', 'pending'],
      ],
      asks: ['edit', 'execute'],
      askTitles: ['Edit notes.txt', CLAUDE_SHELL],
      askCalls: [1, 2],
      options: [
        ['allow-once', 'Yes', 'allow_once'],
        ['allow-with-updates', 'Yes, allow all edits during this session', 'allow_always'],
        ['reject', 'No', 'reject_once'],
      ],
      fsCalls: [],
    },
    more: ({ c }) => {
      const notes = path.join(c.cwd, 'notes.txt');
      assert.deepStrictEqual(c.updatesOf('session_info_update').map((u) => ('title' in u ? u.title : undefined)), [SIDE_TITLE], 'the title comes from the side request');
      const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
      const [read, edit, shell] = calls.map((call) => updatesOf(c, call.toolCallId));
      for (const updates of [read, edit, shell]) assert.strictEqual(updates[updates.length - 1].status, 'completed');
      assert.deepStrictEqual([read[0].title, read[0].rawInput], ['Read notes.txt', { file_path: notes }]);
      assert.strictEqual(read[read.length - 1].content?.[0].content?.text, '```\n1\talpha\n2\tbeta\n3\tgamma\n```');
      assert.deepStrictEqual([edit[0].title, edit[0].rawInput], ['Edit notes.txt', { replace_all: false, file_path: notes, old_string: 'beta', new_string: 'BETA' }]);
      assert.deepStrictEqual(edit[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', notes, 'beta', 'BETA']]);
      assert.ok(edit.some((u) => u.content?.some((x) => x.type === 'diff' && x.newText === 'alpha\nBETA\ngamma')), 'after the write, the diff in context');
      assert.deepStrictEqual([shell[0].title, shell[0].rawInput], [CLAUDE_SHELL, { command: CLAUDE_SHELL, description: 'Run echo' }]);
      const shellDone = shell[shell.length - 1];
      // What the command printed is Claude Code's own capture: the same text in rawOutput and as a console block.
      assert.strictEqual(typeof shellDone.rawOutput, 'string');
      assert.strictEqual(shellDone.content?.[0].content?.text, `\`\`\`console\n${String(shellDone.rawOutput)}\n\`\`\``);
      assert.deepStrictEqual(c.permissionRequests[1].options.map((o) => o.optionId), ['allow-once', 'allow-with-updates', 'reject']);
      assert.match(c.permissionRequests[1].options[1].name, /^Yes, and allow access to switchboard-claude-project-\w+\/ and echo shell-says-hi \* commands$/);
      const usage = c.updatesOf('usage_update') as unknown as Array<{ cost?: { currency: string } }>;
      assert.ok(usage.length >= 4, `usage updates: ${usage.length}`);
      assert.strictEqual(usage[usage.length - 1].cost?.currency, 'USD');
      // All through /v1/messages?beta=true; side requests for the title (and, once the turn has ended, the
      // prompt suggestion, which may not have arrived yet).
      const main = c.endpoint.mainRequests();
      assert.ok(c.endpoint.requests.every((r) => r.api === 'anthropic' && r.path === '/v1/messages?beta=true' && r.status === undefined), c.endpoint.describeLog());
      const side = c.endpoint.requests.filter((r) => r.kind === 'side').map((r) => r.body as { output_config?: unknown });
      assert.ok(side.some((b) => /"title"/.test(JSON.stringify(b.output_config))), `a title request: ${c.endpoint.describeLog()}`);
      const toolResult = (i: number) => JSON.stringify((main[i].body as { messages: unknown[] }).messages.slice(-1));
      assert.match(toolResult(1), /tool_result.*alpha/);
      assert.match(toolResult(3), /tool_result/);
    },
  },

  // Qwen Code (`qwen --acp`): each tool call announced pending while streamed (title "ReadFile" / "Edit" /
  // "WriteFile" / "Shell", `_meta` {toolName, provenance, phase: "preparing"}), then in_progress with the real
  // title and rawInput, then completed. Reads through fs/read_text_file; edits and new files ask, then
  // fs/write_text_file (an edit re-reads first; edits get no in_progress update). A read-only shell command
  // runs inside the agent without asking. Usage comes as `_meta.usage` on an empty agent_message_chunk after
  // each model response. What a command printed is Qwen's own capture (under load it sometimes drops a
  // line): only that it arrives in both places is checked.
  {
    recipe: qwenRecipe,
    handlers: () => [openaiChat],
    title: 'streams text, reads, edits with permission, writes a new file and reports a shell command',
    files: { 'notes.txt': LINES },
    script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two', editNew: 'line 2', done: 'All done: the shell said shell-says-hi.' }),
    prompt: 'Fix the notes',
    expect: {
      authMethods: [QWEN_OPENAI_METHOD],
      modeId: 'default',
      text: 'Let me read the notes first.Now the edit.All done: the shell said shell-says-hi.',
      files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' },
      toolCalls: 4,
      announced: [['ReadFile', 'read', 'pending'], ['Edit', 'edit', 'pending'], ['WriteFile', 'edit', 'pending'], ['Shell', 'execute', 'pending']],
      asks: ['edit', 'edit'],
      askTitles: ['notes.txt', 'Writing to added.txt'],
      askCalls: [1, 2],
      options: [['proceed_always', 'Allow All Edits', 'allow_always'], ['proceed_once', 'Allow', 'allow_once'], ['cancel', 'Reject', 'reject_once']],
      fsCalls: [
        ['fs/read_text_file', 'notes.txt'],
        ['fs/read_text_file', 'notes.txt'],
        ['fs/read_text_file', 'notes.txt'],
        ['fs/write_text_file', 'notes.txt'],
        ['fs/write_text_file', 'added.txt'],
      ],
    },
    more: ({ c }) => {
      const notes = path.join(c.cwd, 'notes.txt');
      const added = path.join(c.cwd, 'added.txt');
      const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
      for (const call of calls) assert.deepStrictEqual(call._meta, { toolName: call._meta?.toolName, provenance: 'builtin', phase: 'preparing' });
      const [read, edit, write, shell] = calls.map((call) => updatesOf(c, call.toolCallId));
      for (const updates of [read, edit, write, shell]) assert.strictEqual(updates[updates.length - 1].status, 'completed');
      assert.deepStrictEqual(read.map((u) => [u.status, u.title]), [['in_progress', 'ReadFile: notes.txt'], ['completed', undefined]]);
      assert.deepStrictEqual(read[0].rawInput, { file_path: notes });
      assert.strictEqual(read[1].content?.[0].content?.text, LINES);
      assert.deepStrictEqual(edit.map((u) => u.status), ['completed'], 'an edit gets no in_progress update');
      assert.deepStrictEqual(edit[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', notes, LINES, LINES_EDITED]]);
      assert.deepStrictEqual(write[0].content?.map((x) => [x.type, x.path, x.oldText, x.newText]), [['diff', added, '', 'brand new\n']]);
      assert.deepStrictEqual(shell.map((u) => [u.status, u.title]), [['in_progress', 'Shell: echo shell-says-hi (Runs echo shell-says-hi)'], ['completed', undefined]]);
      const shellOutput = shell[1].rawOutput && typeof shell[1].rawOutput === 'object' ? (shell[1].rawOutput as Json).output : undefined;
      assert.strictEqual(typeof shellOutput, 'string', `the output in rawOutput: ${JSON.stringify(shell[1].rawOutput)}`);
      assert.ok((shell[1].content?.[0].content?.text ?? '').includes(String(shellOutput)), 'the same output as text content');
      assert.deepStrictEqual(c.permissionRequests[0].toolCall.rawInput, { file_path: notes, old_string: 'line two', new_string: 'line 2' });
      assert.strictEqual(c.fsCalls[3].content, LINES_EDITED);
      // Switchboard's parser keeps `_meta` on tool calls only, so only the five empty usage chunks arrive here.
      const empty = c.updatesOf('agent_message_chunk').filter((u) => 'content' in u && u.content && typeof u.content === 'object' && 'text' in u.content && u.content.text === '');
      assert.strictEqual(empty.length, 5);
      assert.ok(c.endpoint.requests.every((r) => r.api === 'openai-chat'), c.endpoint.describeLog());
      const lastMessages = (c.endpoint.mainRequests()[4].body as { messages: Array<{ role: string }> }).messages;
      assert.ok(lastMessages.some((m) => m.role === 'tool'), 'the shell result goes back to the model');
    },
  },

  // OpenCode (`opencode acp`): an available_commands_update after the prompt; each tool call `tool_call`
  // (pending, title the tool name, rawInput {}), at once in_progress with locations and rawInput, then a
  // permission request for EVERY tool, reads included (for edits the title is the absolute path, rawInput
  // {filepath, diff}, content a diff), then completed with the path (without its leading "/") as title, text
  // content and rawOutput {output, metadata}. Reads never go through fs/*; edits and new files are sent as
  // fs/write_text_file (and written by OpenCode itself too: opencode.test.ts). The title comes from a side
  // request and is not sent over ACP.
  {
    recipe: opencodeRecipe,
    handlers: () => [openaiChat],
    title: 'streams text, reads, edits and creates files with permission, and reports a shell command',
    files: { 'notes.txt': LINES },
    script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi && ls', editOld: 'line two', editNew: 'line 2', done: 'All done: the shell said shell-says-hi.' }),
    prompt: 'Fix the notes',
    expect: {
      authMethods: [OPENCODE_LOGIN_METHOD],
      text: 'Let me read the notes first.Now the edit.All done: the shell said shell-says-hi.',
      files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' },
      toolCalls: 4,
      announced: [['read', 'read', 'pending'], ['edit', 'edit', 'pending'], ['write', 'edit', 'pending'], ['bash', 'execute', 'pending']],
      asks: ['read', 'edit', 'edit', 'execute'],
      askCalls: [0, 1, 2, 3],
      options: [['once', 'Allow once', 'allow_once'], ['always', 'Always allow', 'allow_always'], ['reject', 'Reject', 'reject_once']],
      fsCalls: [['fs/write_text_file', 'notes.txt'], ['fs/write_text_file', 'added.txt']],
    },
    more: ({ c }) => {
      const notes = path.join(c.cwd, 'notes.txt');
      const added = path.join(c.cwd, 'added.txt');
      assert.strictEqual(c.updatesOf('available_commands_update').length, 1);
      const calls = c.updatesOf('tool_call') as unknown as ToolUpdate[];
      const [read, edit, write, shell] = calls.map((call) => updatesOf(c, call.toolCallId));
      for (const updates of [read, edit, write, shell]) {
        assert.strictEqual(updates[0].status, 'in_progress');
        assert.strictEqual(updates[updates.length - 1].status, 'completed');
      }
      assert.deepStrictEqual(read[0].rawInput, { filePath: notes });
      const readDone = read[read.length - 1];
      assert.strictEqual(readDone.title, notes.slice(1), 'the completed title is the path without its leading /');
      assert.strictEqual(readDone.content?.[0].content?.text, LINES.trimEnd());
      const readOutput = (readDone.rawOutput as { output?: string } | undefined)?.output ?? '';
      assert.match(readOutput, /<content>\n1: line one\n2: line two\n3: line three/);
      const editDone = edit[edit.length - 1];
      assert.deepStrictEqual(editDone.content?.map((x) => [x.type, x.content?.text ?? x.path]), [['content', 'Edit applied successfully.'], ['diff', notes]]);
      assert.deepStrictEqual(editDone.content?.[1], { type: 'diff', path: notes, oldText: 'line two', newText: 'line 2' }, 'the diff is the edit, not the whole file');
      assert.strictEqual(write[write.length - 1].content?.[0].content?.text, 'Wrote file successfully.');
      assert.deepStrictEqual(shell.map((u) => u.title), Array(shell.length).fill('echo shell-says-hi && ls'));
      const shellDone = shell[shell.length - 1];
      const shellRaw = shellDone.rawOutput as { output?: string; metadata?: Json } | undefined;
      // What the command printed is OpenCode's own capture: the same text as content and in rawOutput.
      assert.strictEqual(typeof shellRaw?.output, 'string');
      assert.strictEqual(shellDone.content?.[0].content?.text, shellRaw?.output);
      assert.strictEqual(shellRaw?.metadata?.exit, 0);
      assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.title), ['read', notes, added, 'echo shell-says-hi && ls']);
      const editAsk = c.permissionRequests[1].toolCall;
      assert.deepStrictEqual(Object.keys(editAsk.rawInput as object), ['filepath', 'diff']);
      assert.deepStrictEqual(editAsk.content, [{ type: 'diff', path: notes, oldText: LINES, newText: LINES_EDITED }]);
      assert.deepStrictEqual(c.fsCalls.map((f) => f.content), [LINES_EDITED, 'brand new\n']);
      const side = c.endpoint.requests.filter((r) => r.kind === 'side');
      assert.ok(side.length >= 1 && side.every((r) => /title generator/.test(JSON.stringify(r.body))), c.endpoint.describeLog());
      assert.ok(c.endpoint.requests.every((r) => r.api === 'openai-chat'), c.endpoint.describeLog());
      const lastMessages = (c.endpoint.mainRequests()[4].body as { messages: Array<{ role: string }> }).messages;
      assert.ok(lastMessages.some((m) => m.role === 'tool'), 'the shell result goes back to the model');
    },
  },

  // Gemini CLI (`gemini --acp`): read_file reads the disk itself (no fs/read_text_file) and its call carries
  // no content; an edit is announced only inside session/request_permission, its diff read through
  // fs/read_text_file before asking and again after, then written with fs/write_text_file; a writing shell
  // command asks too, and its output reaches only the model. A router classifier (side request) runs once a
  // prompt. write_file of a NEW file fails before asking in 0.61, so only existing files are edited.
  {
    recipe: geminiRecipe,
    handlers: () => [new GeminiApi()],
    title: 'thought, text, a read from disk, an edit and a shell command behind permission, the answer',
    files: { 'notes.txt': 'alpha\nbeta\n', 'src/app.ts': "export const greeting = 'hello';\n" },
    script: (cwd) => [
      // A relative path: the endpoint resolves it against the workspace Gemini names in its context.
      { thought: '**Planning the change**\nRead the notes, then edit.', text: 'Let me look at the notes first.', tools: [{ read: { path: 'notes.txt' } }] },
      { text: 'Now the edit.', tools: [{ edit: { path: path.join(cwd, 'src', 'app.ts'), oldText: "'hello'", newText: "'hello, world'" } }] },
      { tools: [{ shell: { command: 'echo shell-ran | tee shell.txt' } }] },
      { text: 'All done: the greeting now says hello, world.' },
    ],
    prompt: 'Update the greeting',
    expect: {
      text: 'Let me look at the notes first.Now the edit.All done: the greeting now says hello, world.',
      files: { 'src/app.ts': "export const greeting = 'hello, world';\n", 'shell.txt': 'shell-ran\n', 'notes.txt': 'alpha\nbeta\n' },
      toolCalls: 3,
      everyCallAnnounced: false,
      asks: ['edit', 'execute'],
      askTitles: ["src/app.ts: 'hello' => 'hello, world'", 'echo shell-ran | tee shell.txt'],
      options: GEMINI_OPTIONS,
      fsCalls: [['fs/read_text_file', 'src/app.ts'], ['fs/read_text_file', 'src/app.ts'], ['fs/write_text_file', 'src/app.ts']],
    },
    more: ({ c, updates, session, fsCallsAtPermission }) => {
      const notes = path.join(c.cwd, 'notes.txt');
      const app = path.join(c.cwd, 'src', 'app.ts');
      assert.deepStrictEqual(geminiShape(updates), [
        'agent_thought_chunk',
        'agent_message_chunk',
        'tool_call:read_file:in_progress',
        'tool_call_update:read_file:completed',
        'agent_message_chunk',
        'tool_call_update:replace:completed',
        'tool_call_update:run_shell_command:completed',
        'agent_message_chunk',
      ], c.diagnostics());
      // Gemini renders a thought summary as "**Subject**\nDescription" again.
      const thought = updates.find((u) => u.sessionUpdate === 'agent_thought_chunk');
      assert.deepStrictEqual(thought && 'content' in thought ? thought.content : undefined, { type: 'text', text: '**Planning the change**\nRead the notes, then edit.' });
      // The read: titled by the file, with its location and no content.
      const read = updates.filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update').filter((u) => u.toolCallId.startsWith('read_file__'));
      assert.deepStrictEqual(read.map((u) => [u.title, u.kind, u.status, u.content, u.locations]), [
        ['notes.txt', 'read', 'in_progress', [], [{ path: notes }]],
        ['notes.txt', 'read', 'completed', [], [{ path: notes }]],
      ]);
      // The edit: only inside the permission request, then a completed update with the same diff (without _meta).
      const diff = { type: 'diff', path: app, oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" };
      const [editAsk, shellAsk] = c.permissionRequests;
      assert.match(editAsk.toolCall.toolCallId, /^replace__replace_\d+_0$/);
      assert.deepStrictEqual({ ...editAsk.toolCall, toolCallId: 'id' }, {
        toolCallId: 'id',
        status: 'pending',
        title: "src/app.ts: 'hello' => 'hello, world'",
        content: [{ ...diff, _meta: { kind: 'modify' } }],
        locations: [{ path: app }],
        kind: 'edit',
      });
      const edited = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === editAsk.toolCall.toolCallId);
      assert.deepStrictEqual(edited && edited.sessionUpdate === 'tool_call_update' ? [edited.status, edited.title, edited.content] : undefined, ['completed', "src/app.ts: 'hello' => 'hello, world'", [diff]]);
      assert.strictEqual(c.fsCalls[2].content, "export const greeting = 'hello, world';\n");
      assert.deepStrictEqual(fsCallsAtPermission, [1, 3], 'one read for the diff before asking, the re-read and the write after');
      // The shell command: asked with the command as title, then completed with no output for the client.
      assert.deepStrictEqual(shellAsk.options.map((o) => [o.optionId, o.name, o.kind]), GEMINI_OPTIONS);
      assert.deepStrictEqual({ ...shellAsk.toolCall, toolCallId: 'id' }, {
        toolCallId: 'id',
        status: 'pending',
        title: 'echo shell-ran | tee shell.txt',
        content: [{ type: 'content', content: { type: 'text', text: `[current working directory ${c.cwd}] (Runs echo.)` } }],
        locations: [],
        kind: 'execute',
      });
      const ran = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === shellAsk.toolCall.toolCallId);
      assert.deepStrictEqual(ran && ran.sessionUpdate === 'tool_call_update' ? [ran.status, ran.content] : undefined, ['completed', []]);
      // The endpoint: one router classifier, then four main requests carrying each tool's result back.
      const side = c.endpoint.requests.filter((r) => r.kind === 'side');
      assert.deepStrictEqual(side.map((r) => r.path), ['/v1beta/models/gemini-3.5-flash-lite:generateContent'], c.endpoint.describeLog());
      assert.match(JSON.stringify(side[0].body), /complexity_score/);
      const main = c.endpoint.mainRequests();
      assert.ok(main.every((r) => /^\/v1beta\/models\/[\w.-]+:streamGenerateContent\?alt=sse$/.test(r.path)));
      const readBack = functionResponse(main[1]);
      assert.deepStrictEqual([readBack.name, readBack.response], ['read_file', { output: 'alpha\nbeta\n' }], 'the disk content');
      assert.match(functionResponse(main[2]).response.output, /^Successfully modified file: .*app\.ts \(1 replacements\)/);
      assert.strictEqual(typeof functionResponse(main[3]).response.output, 'string', 'the model, not the client, gets the output');
      // Switchboard's reducer makes three finished tool cards of it.
      const transcript = new TranscriptState(session.sessionId);
      for (const u of updates) transcript.apply(u);
      const tools = transcript.transcript.items.flatMap((i) => (i.kind === 'tool_call' ? [[i.toolKind, i.status, i.title]] : []));
      assert.deepStrictEqual(tools, [
        ['read', 'completed', 'notes.txt'],
        ['edit', 'completed', "src/app.ts: 'hello' => 'hello, world'"],
        ['execute', 'completed', 'echo shell-ran | tee shell.txt'],
      ]);
    },
  },

  // Codex (codex-acp): applies patches and runs shells itself (no fs/*, no terminal/*); the edit is one
  // tool_call with the whole-file diff; a shell's output reaches the client only in rawOutput (without
  // `_meta.terminal_output`: codex.test.ts has that). Usage after each model response.
  {
    recipe: codex,
    handlers: () => [openaiResponses],
    title: 'streams text, edits a file with apply_patch after asking, runs a shell, reports its output, ends the turn',
    files: { 'notes.txt': 'alpha\nbeta\ngamma\n' },
    script: () => [
      { thought: 'The notes need a capital BETA.', text: 'I will update the notes.', tools: [{ edit: { path: 'notes.txt', oldText: 'beta', newText: 'BETA' } }] },
      { text: 'Now counting the lines.', tools: [{ shell: { command: CODEX_SHELL } }] },
      { text: 'Done: notes.txt now says BETA and has 3 lines.' },
    ],
    prompt: 'Capitalise beta in notes.txt, then count its lines',
    expect: {
      text: 'I will update the notes.Now counting the lines.Done: notes.txt now says BETA and has 3 lines.',
      thought: 'The notes need a capital BETA.',
      files: { 'notes.txt': 'alpha\nBETA\ngamma\n', 'shell.txt': 'shell-ran\n' },
      toolCalls: 2,
      asks: ['edit', 'execute'],
      askCalls: [0, 1],
      options: [['approved', 'Yes', 'allow_once'], ['abort', 'No, provide feedback', 'reject_once']],
      fsCalls: [],
    },
    more: ({ c, init, session }) => {
      const notes = path.join(c.cwd, 'notes.txt');
      assert.deepStrictEqual(init.agentInfo, { name: 'codex-acp', title: 'Codex', version: '0.16.0' });
      const model = session.configOptions?.find((o) => o.id === 'model');
      assert.strictEqual(model && 'currentValue' in model ? model.currentValue : undefined, CODEX_MODEL);
      const edit = toolCallOf(c, 'edit');
      assert.strictEqual(edit.start.title, `Edit ${notes}`);
      assert.strictEqual(edit.start.status, 'in_progress');
      assert.deepStrictEqual(edit.start.content, [{ type: 'diff', path: notes, oldText: 'alpha\nbeta\ngamma\n', newText: 'alpha\nBETA\ngamma\n' }]);
      assert.deepStrictEqual(edit.start.locations, [{ path: notes }]);
      assert.deepStrictEqual((edit.start.rawInput as Json).changes, { [notes]: { type: 'update', unified_diff: '@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n', move_path: null } });
      assert.strictEqual(edit.final.status, 'completed');
      assert.strictEqual((edit.final.rawOutput as Json).success, true);
      // The shell: title = the command, kind execute, no content; the output only in rawOutput.
      const shell = toolCallOf(c, 'execute');
      assert.strictEqual(shell.start.title, CODEX_SHELL);
      assert.strictEqual(shell.start.content, undefined, 'without _meta.terminal_output Codex sends no content when the shell starts');
      assert.deepStrictEqual((shell.start.rawInput as Json).command, ['/bin/bash', '-lc', CODEX_SHELL]);
      assert.strictEqual((shell.start.rawInput as Json).cwd, c.cwd);
      assert.strictEqual(shell.final.status, 'completed');
      const rawOutput = shell.final.rawOutput as Json;
      assert.strictEqual(rawOutput.exit_code, 0);
      // What the command printed is Codex's own capture (now and then empty, openai/codex#28207): its shape only.
      assert.strictEqual(typeof rawOutput.formatted_output, 'string');
      assert.strictEqual(typeof rawOutput.stdout, 'string');
      assert.deepStrictEqual(c.permissionRequests.map((p) => p.toolCall.status), ['pending', 'pending']);
      assert.deepStrictEqual(c.permissionRequests[0].options, [
        { optionId: 'approved', name: 'Yes', kind: 'allow_once' },
        { optionId: 'abort', name: 'No, provide feedback', kind: 'reject_once' },
      ]);
      assert.deepStrictEqual(c.permissionRequests[1].options.map((o) => [o.optionId, o.kind]), [
        ['approved', 'allow_once'],
        ['approved-execpolicy-amendment', 'allow_always'],
        ['abort', 'reject_once'],
      ]);
      // Usage after each model response; the context window Codex assumes for the model.
      const usage = c.updatesOf('usage_update').map((u) => u as unknown as { used: number; size: number });
      assert.strictEqual(usage.length, 3);
      assert.ok(usage.every((u) => u.used > 0 && u.size > 0));
      // The endpoint saw three turn requests and nothing else; the tool results went back to the model.
      assert.deepStrictEqual(c.endpoint.requests.map((r) => [r.method, r.path, r.api, r.kind]), Array(3).fill(['POST', '/v1/responses', 'openai-responses', 'main']));
      const [first, second, third] = c.endpoint.requests.map((r) => r.body as Json);
      assert.strictEqual(first.model, CODEX_MODEL);
      assert.strictEqual(first.stream, true);
      assert.match(String(inputItems(second, 'custom_tool_call_output')[0]?.output), /Success\. Updated the following files:\nM .*notes\.txt/);
      const shellResult = inputItems(third, 'function_call_output');
      assert.match(String(shellResult[shellResult.length - 1]?.output), /Process exited with code 0/);
    },
  },

  // Kilo, Cline and Droid (recipes and measured behaviour: test/fixtures/realAgents/kilo.ts, cline.ts,
  // droid.ts): the same turn as Qwen's; what a command printed is the agent's own capture, never asserted.
  {
    recipe: kiloRecipe,
    handlers: () => [openaiChat],
    title: 'streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop',
    files: { 'notes.txt': LINES },
    script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two\n', editNew: 'line 2\n', done: 'All done.' }),
    prompt: 'Fix the notes',
    expect: { version: '7.7.7', text: 'Let me read the notes first.Now the edit.All done.', files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' }, toolCalls: 4, asks: ['read', 'edit', 'edit', 'execute'] },
  },
  {
    recipe: clineRecipe,
    handlers: () => [openaiChat],
    title: 'streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop',
    files: { 'notes.txt': LINES },
    script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two\n', editNew: 'line 2\n', done: 'All done.' }),
    prompt: 'Fix the notes',
    // Cline's apply_patch drops the final newline of an added file; its hub daemon is ended by stop.
    expect: { version: '3.0.65', text: 'Let me read the notes first.Now the edit.All done.', files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new' }, toolCalls: 4, asks: ['read', 'other', 'other', 'execute'] },
    daemon: '--cline-hub-daemon',
  },
  {
    recipe: droidRecipe,
    handlers: () => [openaiChat],
    title: 'streams text, reads, edits and creates files with permission, runs a shell command, and leaves no process after stop',
    files: { 'notes.txt': LINES },
    script: (cwd) => chatScript(cwd, { shell: 'echo shell-says-hi', editOld: 'line two\n', editNew: 'line 2\n', done: 'All done.' }),
    prompt: 'Fix the notes',
    expect: { version: '0.215.0', text: 'Let me read the notes first.Now the edit.All done.', files: { 'notes.txt': LINES_EDITED, 'added.txt': 'brand new\n' }, toolCalls: 4, asks: ['edit', 'edit', 'execute'] },
  },
];
