// Maps host objects (sessions, permission and elicitation prompts) to the chat's view types.
import * as vscode from 'vscode';
import { toolCallFromRequest } from '../../../acp';
import type { BackendSessionView } from '../../../chat/chatBackend';
import type { ChangedFileView, ElicitationSchema, PendingElicitation, PendingPermission } from '../../../shared/chatState';
import type { DiffReview } from '../../diff';
import type { ElicitationBroker, ElicitationPrompt } from '../../permissions/elicitationBroker';
import type { PermissionBroker, PermissionPrompt } from '../../permissions/permissionBroker';
import type { Session } from '../session';
import { enterWhileRunning } from '../turn/enterWhileRunning';

export interface SessionViewSources {
  permissions: PermissionBroker;
  elicitations: ElicitationBroker;
  diffReview: DiffReview;
}

export function sessionView(session: Session, o: SessionViewSources): BackendSessionView {
  const view: BackendSessionView = {
    sessionId: session.key,
    agentId: session.agentId,
    title: session.title,
    turn: session.turn,
    capabilities: session.capabilities,
    permissions: o.permissions.pending(session.scopedId).map(permissionView),
    elicitations: o.elicitations.pending(session.scopedId).map(elicitationView),
    folders: [session.cwd, ...session.additionalDirectories],
  };
  if (session.capabilities.steering) view.enterWhileRunning = enterWhileRunning();
  if (session.error) view.error = session.error;
  if (session.loading) view.loading = true;
  if (session.instructions) view.instructions = session.instructions;
  const changed = changedFilesOf(session.scopedId, o.diffReview);
  if (changed.length > 0) view.changedFiles = changed;
  return view;
}

/** The session's changed files still pending review (all its turns; the tree view shows the same). */
function changedFilesOf(scopedId: string, diffReview: DiffReview): ChangedFileView[] {
  return diffReview
    .changedFiles()
    .filter((f) => f.sessionId === scopedId)
    .map((f) => {
      const v: ChangedFileView = {
        key: f.key,
        path: f.path,
        name: vscode.workspace.asRelativePath(f.path, false),
        status: f.status,
        added: f.added,
        removed: f.removed,
        countsKnown: f.countsKnown,
        conflict: f.conflict,
        undoable: f.undoable,
      };
      if (f.note) v.note = f.note;
      return v;
    });
}

export function permissionView(prompt: PermissionPrompt): PendingPermission {
  const call = prompt.toolCall;
  const view: PendingPermission = {
    requestId: prompt.id,
    toolCallId: call.toolCallId,
    ...(prompt.subagentPath ? { subagentPath: [...prompt.subagentPath] } : {}),
    title: call.title ?? 'The agent asks for permission',
    options: prompt.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
  };
  // The same reading as a tool_call_update, so the card shows what a tool call card would.
  const item = toolCallFromRequest(call);
  if (call.kind && item && !item.rawKind) view.toolKind = item.toolKind;
  if (call.locations && item) view.locations = item.locations;
  if (item && item.content.length > 0) view.content = item.content;
  const command = commandPreview(call.rawInput);
  if (command) view.command = command;
  return view;
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
