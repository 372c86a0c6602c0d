// What the chat's file buttons do for a session: a tool call's diff, one changed file or all of them, a
// file plan's file.
import type { FilesPort } from '../../chat/chatBackend';
import type { DiffReview } from '../diff';
import type { FsBridge } from '../fs/fsBridge';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { openPlanFile } from './turn/planFiles';
import type { SessionRegistry } from './tabs/sessionRegistry';

export class SessionFiles implements FilesPort {
  constructor(
    private readonly diffReview: DiffReview,
    private readonly permissions: PermissionBroker,
    private readonly fs: FsBridge,
    private readonly sessions: SessionRegistry,
  ) {}

  /** A tool call's diff; one still waiting for permission opens reviewable (Accept / Reject in its title answer it). */
  async openDiff(tabId: string, toolCallId: string, path: string): Promise<void> {
    const session = this.sessions.get(tabId);
    if (session) {
      const prompts = new Set(this.permissions.pending(session.scopedId).filter((p) => p.toolCall.toolCallId === toolCallId).map((p) => p.id));
      const pending = this.diffReview.pending
        .list()
        .find((d) => d.sessionId === session.scopedId && d.path === path && prompts.has(String(d.requestId).split('#')[0]));
      if (pending) {
        await this.diffReview.showPendingPermissionDiff(pending);
        return;
      }
    }
    const item = session?.transcript.items.find((i) => i.kind === 'tool_call' && i.toolCallId === toolCallId);
    const diff = item?.kind === 'tool_call' ? item.content.find((c) => c.type === 'diff' && c.path === path) : undefined;
    if (!diff || diff.type !== 'diff') throw new Error(`No diff for ${path} in that tool call.`);
    await this.diffReview.opener.openAcpDiff({ path: diff.path, oldText: diff.oldText, newText: diff.newText }, item?.kind === 'tool_call' ? item.title : undefined);
  }

  async fileAction(tabId: string, key: string, action: 'open' | 'keep' | 'undo'): Promise<void> {
    const session = this.sessions.require(tabId);
    if (!this.diffReview.changedFiles().some((f) => f.key === key && f.sessionId === session.scopedId)) throw new Error('That change is no longer pending.');
    if (action === 'open') await this.diffReview.opener.openEntryDiff(key);
    else if (action === 'keep') this.diffReview.keepFile(key);
    else await this.diffReview.undoFile(key);
  }

  async allFiles(tabId: string, action: 'keep' | 'undo'): Promise<void> {
    const session = this.sessions.require(tabId);
    // Newest turn first, so undoing several turns restores each file to its oldest known content.
    const turns = this.diffReview.pendingTurns().filter((t) => t.sessionId === session.scopedId).reverse();
    for (const turn of turns) {
      if (action === 'keep') this.diffReview.keepAll(turn);
      else if (!(await this.diffReview.undoAll(turn))) break;
    }
  }

  async openPlanFile(tabId: string, planId: string): Promise<void> {
    await openPlanFile(this.sessions.require(tabId), planId, this.fs);
  }
}
