// Glue from the host bridges to diff review, typed structurally (only the fields used) so this module
// does not depend on the bridges' internals: PermissionBroker and FsBridge satisfy these shapes.
import * as vscode from 'vscode';
import { toolCallFromRequest } from '../../acp';
import type { ToolCallContentItem } from '../../shared/transcript';
import type { DiffReview } from './index';
import type { PermissionOptionLike } from './types';

/** The part of `PermissionBroker` diff review needs. */
export interface PermissionSource {
  readonly onDidRequest: vscode.Event<{
    id: string;
    sessionId: string;
    /** The request's ToolCallUpdate as the agent sent it (parsed here by the protocol engine). */
    toolCall: { toolCallId: string; title?: string | null; content?: readonly unknown[] | null };
    options: readonly PermissionOptionLike[];
  }>;
  readonly onDidResolve: vscode.Event<{ prompt: { id: string; sessionId: string } }>;
  resolve(promptId: string, optionId: string): boolean;
}

/** The part of `FsBridge` diff review needs (its `onDidWrite` fires a WriteRecord). */
export interface WriteSource {
  readonly onDidWrite: vscode.Event<{ sessionId: string; turnId: string; path: string; before: string | null; after: string }>;
}

/** The diffs a permission request's tool call carries, read the way a tool_call_update is (one parser). */
function diffItems(toolCall: unknown): Extract<ToolCallContentItem, { type: 'diff' }>[] {
  const item = toolCallFromRequest(toolCall);
  return (item?.content ?? []).filter((c): c is Extract<ToolCallContentItem, { type: 'diff' }> => c.type === 'diff');
}

/**
 * Every permission request that carries diffs becomes reviewable in the diff editor (one pending diff
 * per file; answering any answers the request); answers from anywhere else close them.
 */
export function connectPermissionBroker(review: DiffReview, broker: PermissionSource): vscode.Disposable {
  const byPrompt = new Map<string, string[]>();
  return vscode.Disposable.from(
    broker.onDidRequest((prompt) => {
      const diffs = diffItems(prompt.toolCall);
      const ids: string[] = [];
      diffs.forEach((d, i) => {
        const requestId = diffs.length === 1 ? prompt.id : `${prompt.id}#${i}`;
        ids.push(requestId);
        review.addPendingPermissionDiff({
          sessionId: prompt.sessionId,
          requestId,
          path: d.path,
          oldText: d.oldText,
          newText: d.newText,
          options: prompt.options,
          title: prompt.toolCall.title ?? undefined,
          answer: (optionId) => void broker.resolve(prompt.id, optionId),
        });
      });
      if (ids.length > 0) byPrompt.set(prompt.id, ids);
    }),
    broker.onDidResolve((decision) => {
      const ids = byPrompt.get(decision.prompt.id);
      if (!ids) return;
      byPrompt.delete(decision.prompt.id);
      for (const id of ids) review.permissionResolved(decision.prompt.sessionId, id);
    }),
  );
}

/** Every write the fs bridge applies is recorded in the turn's changed files. */
export function connectWriteSource(review: DiffReview, bridge: WriteSource): vscode.Disposable {
  return bridge.onDidWrite((r) => review.recordWrite({ sessionId: r.sessionId, turnId: r.turnId, uri: r.path, before: r.before, after: r.after }));
}
