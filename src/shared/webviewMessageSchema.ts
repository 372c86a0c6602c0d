// The one check of what the webview sends: a compromised webview is untrusted input, so every message is
// parsed against this schema on arrival and the host sees only well-formed, bounded values. The message
// types in ./messages are inferred from it. Only the host imports this file at runtime (the webview bundle
// never loads zod).
import * as z from './zod';

/** A string of at most `max` characters. */
const stringUpTo = (max: number) => z.string().check(z.maxLength(max));
const id = z.string().check(z.minLength(1), z.maxLength(1000));
const text = stringUpTo(1_000_000);

/** The context mention kinds (ContextMentionKind). */
const contextMentionKinds = ['problems', 'changes', 'terminal', 'session'] as const;

const mention = z.object({
  kind: z.enum(['file', 'folder', 'editor', 'selection', 'symbol', ...contextMentionKinds, 'terminalSelection', 'diff', 'diagnostic']),
  uri: stringUpTo(10_000),
  label: stringUpTo(1000),
  range: z.optional(z.object({ startLine: z.int(), endLine: z.int() })),
  text: z.optional(stringUpTo(1_000_000)),
  attached: z.optional(z.boolean()),
});

const image = z.object({
  id: stringUpTo(1000),
  mimeType: z.string().check(z.regex(/^image\/[\w.+-]+$/)),
  data: stringUpTo(50_000_000),
  name: z.optional(stringUpTo(1000)),
});

/** Keeps the well-formed items of a list and drops the rest, so one bad attachment never loses the message. */
const wellFormed = <T extends z.ZodMiniType>(item: T, max: number) =>
  z.pipe(
    z.array(z.unknown()).check(z.maxLength(max)),
    z.transform((items) => items.flatMap((i) => { const r = item.safeParse(i); return r.success ? [r.data as z.output<T>] : []; })),
  );

export const composerPromptSchema = z.object({ text, mentions: wellFormed(mention, 500), images: wellFormed(image, 50) });

const permissionAnswer = z.union([z.object({ optionId: id }), z.object({ cancelled: z.literal(true) })]);

const elicitationValue = z.union([stringUpTo(100_000), z.number(), z.boolean(), z.array(stringUpTo(100_000)).check(z.maxLength(1000))]);
const elicitationAnswer = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.optional(z.record(z.string(), elicitationValue)) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);

/** The Model provider settings' requests; the host checks URLs and header names and says what is wrong. */
const providerAction = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('refresh') }),
  z.object({
    kind: z.literal('set'),
    providerId: id,
    apiType: id,
    baseUrl: stringUpTo(10_000),
    headers: z.array(z.object({ name: stringUpTo(1000), value: z.optional(stringUpTo(100_000)) })).check(z.maxLength(100)),
  }),
  z.object({ kind: z.literal('disable'), providerId: id }),
  z.object({ kind: z.literal('dismiss') }),
]);

const message = <T extends string, S extends z.core.$ZodShape>(type: T, shape: S) => z.object({ type: z.literal(type), ...shape });

export const webviewToHostSchema = z.discriminatedUnion('type', [
  /** `attempt`: the webview asked before and got no `init` (absent on the first ask). */
  message('ready', { protocolVersion: z.number(), attempt: z.optional(z.number()) }),
  /** The webview's copy drifted (an op did not apply, or a seq was missed): the host answers with a fresh `init`. */
  message('resync', { reason: stringUpTo(2000) }),
  /** `requestId`: a prompt sent before the session opens names it to wait for that session. */
  message('newSession', { agentId: z.optional(id), requestId: z.optional(id) }),
  message('selectSession', { sessionId: id }),
  message('closeSession', { sessionId: id }),
  /**
   * With no `sessionId` the prompt goes to the session a `newSession` with `newSessionRequestId` opens, or
   * the host first starts a session with `agentId` (or the default). Queued while a turn runs.
   */
  message('prompt', { sessionId: z.optional(id), agentId: z.optional(id), newSessionRequestId: z.optional(id), prompt: composerPromptSchema }),
  /** Into the running turn where the agent steers, else like `prompt`. */
  message('steer', { sessionId: id, prompt: composerPromptSchema }),
  message('cancel', { sessionId: id }),
  /** Cancel one subagent's work (`session/cancel` on the child session); the parent's turn goes on. */
  message('cancelSubagent', { sessionId: id, subagentSessionId: id }),
  message('queueEdit', { sessionId: id, queueId: id, text }),
  message('queueRemove', { sessionId: id, queueId: id }),
  /** Cancel the running turn and send this queued message right after. */
  message('queueSendNow', { sessionId: id, queueId: id }),
  message('setMode', { sessionId: id, modeId: id }),
  message('setModel', { sessionId: id, modelId: id }),
  message('setConfigOption', { sessionId: id, configId: id, value: z.union([stringUpTo(10_000), z.boolean()]) }),
  message('permissionAnswer', { sessionId: id, requestId: id, answer: permissionAnswer }),
  message('elicitationAnswer', { sessionId: id, requestId: id, answer: elicitationAnswer }),
  message('dismissError', { sessionId: id }),
  /** "Retry" on a failed turn: its prompt is sent again (queued like any message). */
  message('retry', { sessionId: id }),
  /** `fromItemId`: "Fork from here" on a user message. */
  message('forkSession', { sessionId: id, fromItemId: z.optional(id) }),
  /** The host trims, checks and caps the title (a bad one is said in the session's banner). */
  message('renameSession', { sessionId: id, title: stringUpTo(100_000) }),
  message('restartAgent', { agentId: id }),
  message('authenticate', { agentId: id, methodId: id }),
  /** Sign out of the agent where it supports it, and forget the secrets Switchboard kept for it. */
  message('logout', { agentId: id }),
  /** Model provider settings (unstable providers/*): list again, set, disable, or dismiss the last message. */
  message('providerAction', { agentId: id, action: providerAction }),
  message('refreshHistory', {}),
  message('openHistory', { historyId: id, mode: z.enum(['load', 'resume']) }),
  message('deleteHistory', { historyId: id }),
  message('mentionQuery', { requestId: z.int(), sessionId: z.optional(id), query: z.pipe(z.string(), z.transform((q) => q.slice(0, 200))) }),
  message('copyCode', { code: text }),
  message('insertCode', { code: text }),
  message('openCode', { code: text, language: z.optional(stringUpTo(100)) }),
  /** A link in agent output. The host only opens http(s)/mailto (via openExternal, which confirms) or workspace files. */
  message('openLink', { href: stringUpTo(10_000) }),
  message('openLocation', { path: stringUpTo(10_000), line: z.optional(z.int()) }),
  // A chip: what it names, and for one that carries text, the text (opened read-only).
  message('openResource', {
    uri: stringUpTo(10_000),
    kind: z.optional(mention.shape.kind),
    range: z.optional(mention.shape.range),
    text: z.optional(text),
    mimeType: z.optional(stringUpTo(200)),
  }),
  message('openDiff', { sessionId: id, toolCallId: id, path: stringUpTo(10_000) }),
  /**
   * A file plan card's "Open plan": the host opens the file the agent named for that plan in the transcript;
   * `uri` (what the card showed) only comes back in the answer, `planFileOpened`.
   */
  message('openPlanFile', { sessionId: id, planId: id, uri: stringUpTo(10_000) }),
  /** A terminal card's "Open terminal": reveal its VS Code terminal. */
  message('openTerminal', { sessionId: id, terminalId: id }),
  /** Per changed file: open its diff, keep the change, or undo it. */
  message('changedFileAction', { sessionId: id, key: id, action: z.enum(['open', 'keep', 'undo']) }),
  /** Keep All / Undo All of the session's pending changed files. */
  message('changedFilesAll', { sessionId: id, action: z.enum(['keep', 'undo']) }),
  /** A user message's checkpoint: preview the files it restores, restore (with the user's files chosen), undo, a file's diff. */
  message('checkpointAction', {
    sessionId: id,
    itemId: id,
    action: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('preview') }),
      z.object({ kind: z.literal('restore'), include: z.array(stringUpTo(10_000)).check(z.maxLength(100_000)) }),
      z.object({ kind: z.literal('undo') }),
      z.object({ kind: z.literal('openDiff'), path: stringUpTo(10_000) }),
    ]),
  }),
  message('showProtocolLog', {}),
  /** The Agent picker's "Add agent…" entry: opens the ACP Registry list. */
  message('addAgentFromRegistry', {}),
  /** Webview-side errors, for the host's log. */
  message('log', { level: z.enum(['info', 'warn', 'error']), message: z.pipe(z.string(), z.transform((m) => m.slice(0, 2000))) }),
]);

/** Parses a message from the webview; the error says which message and field were wrong. */
export function parseWebviewMessage(raw: unknown): { ok: true; message: z.output<typeof webviewToHostSchema> } | { ok: false; error: string } {
  const parsed = webviewToHostSchema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const type = typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string' ? (raw as { type: string }).type : '(no type)';
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${type}: ${issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'malformed'}` };
}
