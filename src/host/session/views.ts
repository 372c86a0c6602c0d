// Maps host objects (agent runtimes, permission and elicitation prompts) to the chat's view types.
import type { AgentView, AuthMethodView, ElicitationSchema, PendingElicitation, PendingPermission } from '../../shared/chatState';
import type { ToolCallContentItem, ToolKind, ToolLocation } from '../../shared/transcript';
import type { AuthFlow } from '../auth/authMethods';
import type { ElicitationPrompt } from '../elicitationBroker';
import type { PermissionPrompt } from '../permissionBroker';
import type { AgentRuntime } from './agentRuntime';

const TOOL_KINDS: ReadonlySet<string> = new Set(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);

export function agentView(id: string, runtime: AgentRuntime | undefined, authFlows: AuthFlow[] | undefined): AgentView {
  const view: AgentView = { id, name: id, status: runtime?.status ?? 'stopped' };
  if (runtime?.crash && runtime.status === 'crashed') view.crash = runtime.crash;
  if (runtime?.detail) view.detail = runtime.detail;
  if (authFlows && runtime?.status === 'auth_required') view.authMethods = authFlows.map(authMethodView);
  return view;
}

function authMethodView(flow: AuthFlow): AuthMethodView {
  const view: AuthMethodView = { id: flow.id, name: flow.name, kind: flow.type };
  if (flow.description) view.description = flow.description;
  if (flow.type === 'env_var') view.vars = flow.vars.map((v) => v.name);
  return view;
}

export function permissionView(prompt: PermissionPrompt): PendingPermission {
  const call = prompt.toolCall;
  const view: PendingPermission = {
    requestId: prompt.id,
    toolCallId: call.toolCallId,
    title: call.title ?? 'The agent asks for permission',
    options: prompt.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
  };
  if (call.kind && TOOL_KINDS.has(call.kind)) view.toolKind = call.kind as ToolKind;
  if (call.locations) view.locations = call.locations.map((l): ToolLocation => (typeof l.line === 'number' ? { path: l.path, line: l.line } : { path: l.path }));
  const content = (call.content ?? []).map(toolContentView).filter((c): c is ToolCallContentItem => c !== undefined);
  if (content.length > 0) view.content = content;
  const command = commandPreview(call.rawInput);
  if (command) view.command = command;
  return view;
}

function toolContentView(c: unknown): ToolCallContentItem | undefined {
  if (typeof c !== 'object' || c === null) return undefined;
  const r = c as Record<string, unknown>;
  if (r.type === 'diff' && typeof r.path === 'string' && typeof r.newText === 'string') {
    return { type: 'diff', path: r.path, oldText: typeof r.oldText === 'string' ? r.oldText : null, newText: r.newText };
  }
  if (r.type === 'terminal' && typeof r.terminalId === 'string') return { type: 'terminal', terminalId: r.terminalId };
  if (r.type === 'content' && typeof r.content === 'object' && r.content !== null) {
    const inner = r.content as Record<string, unknown>;
    if (inner.type === 'text' && typeof inner.text === 'string') return { type: 'content', content: { type: 'text', text: inner.text } };
  }
  return { type: 'unknown', raw: c };
}

/** The shell command of an `execute` tool call, from the usual rawInput shapes. */
function commandPreview(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const r = rawInput as Record<string, unknown>;
  if (typeof r.command === 'string') return Array.isArray(r.args) ? [r.command, ...r.args.map(String)].join(' ') : r.command;
  if (Array.isArray(r.command)) return r.command.map(String).join(' ');
  return undefined;
}

export function elicitationView(prompt: ElicitationPrompt): PendingElicitation {
  if (prompt.mode === 'url') return { requestId: prompt.id, mode: 'url', message: prompt.message, url: prompt.url ?? '' };
  const schema = (prompt.requestedSchema ?? { type: 'object', properties: {} }) as unknown as ElicitationSchema;
  return { requestId: prompt.id, mode: 'form', message: prompt.message, schema };
}
