// A write to a sensitive file through fs/write_text_file, asked as a permission card of its own (the path
// and the diff, "Allow this write" / "Reject"): never auto-approved, never remembered.
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import type { RequestPermissionRequest } from '../../acp';
import type { PermissionBroker } from './permissionBroker';

/** The fields of the fs bridge's question this card needs (SensitiveWriteQuestion in host/fs). */
export interface SensitiveWriteAsk {
  sessionId: string;
  agentName: string;
  realPath: string;
  pattern: string;
  before: string | null;
  content: string;
}

export const ALLOW_WRITE = 'switchboard-allow-sensitive-write';
let nextId = 0;

export function sensitiveWriteRequest(q: SensitiveWriteAsk): RequestPermissionRequest {
  const shown = vscode.workspace.asRelativePath(q.realPath) || nodePath.basename(q.realPath);
  return {
    sessionId: q.sessionId,
    toolCall: {
      toolCallId: `switchboard-sensitive-write-${++nextId}`,
      title: `Write ${shown}: a sensitive file (${q.pattern}) that can change what runs or what is allowed`,
      kind: 'edit',
      status: 'pending',
      locations: [{ path: q.realPath }],
      content: [{ type: 'diff', path: q.realPath, oldText: q.before, newText: q.content }],
    },
    options: [
      { optionId: ALLOW_WRITE, name: 'Allow this write', kind: 'allow_once' },
      { optionId: 'switchboard-reject-sensitive-write', name: 'Reject', kind: 'reject_once' },
    ],
  };
}

/** Asks in the chat (or a notification when it is hidden); true only when the user chose to allow. */
export async function askSensitiveWrite(broker: PermissionBroker, q: SensitiveWriteAsk): Promise<boolean> {
  const decision = await broker.request(sensitiveWriteRequest(q), { agentName: q.agentName }, { alwaysAsk: true });
  const outcome = decision.response.outcome;
  return decision.via === 'user' && outcome.outcome === 'selected' && outcome.optionId === ALLOW_WRITE;
}
