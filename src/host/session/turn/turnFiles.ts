// Which files a turn changed, whoever wrote them. Writes through fs/write_text_file are recorded by the fs
// bridge; agents that write files themselves (Claude, Codex, OpenCode, Cline) are caught against the
// baseline the diff review takes before the prompt is sent: live from file events and the files tool
// calls and permission requests name, and at the end of the turn from every file that differs from it.
import * as vscode from 'vscode';
import * as nodePath from 'node:path';
import { errorMessage, toolCallFromRequest } from '../../../acp';
import type { TranscriptItem } from '../../../shared/transcript';
import type { DiffReview, FolderSnapshot } from '../../diff';
import type { FsBridge } from '../../fs/fsBridge';

type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

/** A turn as the diff review records it (its key, diff/changeStore.ts TurnRef, is the session and turn ids): the agent-qualified session id, the turn's id, its folders and its label. */
export interface ReviewTurn {
  readonly scopedId: string;
  readonly turnId: string;
  readonly folders: readonly string[];
  /** Its name in the Changed Files tree: the session's title and the turn's number. */
  readonly label: string;
}

/** How long the end of a turn waits for the agent's unanswered fs writes before listing changed files. */
const WRITES_SETTLE_MS = 5000;

/** The absolute paths a tool call names: its locations and the files of its diffs. */
function filesNamedBy(call: ToolCallItem): string[] {
  const paths = [...call.locations.map((l) => l.path), ...call.content.flatMap((c) => (c.type === 'diff' ? [c.path] : []))];
  return [...new Set(paths)].filter((p) => nodePath.isAbsolute(p));
}

/** Resolves when `work` settles or after `ms`, whichever is first; never rejects. */
function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.then(() => undefined, () => undefined), timeout]).finally(() => clearTimeout(timer));
}

export class TurnFiles {
  constructor(
    private readonly diffReview: DiffReview,
    private readonly fs: FsBridge,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /**
   * Before the prompt is sent: the folders' baseline (nothing the agent writes can be in it). Its snapshots
   * (undefined without git) are the checkpoint of this user message: `diffReview.changesSince` them.
   */
  /** A session opened on these folders: their baseline is prepared before its first turn needs it. */
  prepare(folders: readonly string[]): void {
    this.diffReview.prepareFolders(folders);
  }

  begin(turn: ReviewTurn): Promise<FolderSnapshot[] | undefined> {
    return this.diffReview.beginTurn(turn.scopedId, turn.turnId, turn.folders, turn.label);
  }

  /** The turn ended: waits for writes in flight, checks the files its tool calls named once more, lists them. */
  async end(turn: ReviewTurn, toolCalls: readonly ToolCallItem[]): Promise<void> {
    await settledWithin(this.fs.settled(turn.scopedId), WRITES_SETTLE_MS);
    for (const call of toolCalls) await this.noticeToolCall(turn, call);
    await this.diffReview.endTurn(turn.scopedId);
  }

  /**
   * The files a tool call names, compared with what they were before the turn (the baseline, else the
   * `oldText` of the call's own diff); without either, one seen first is snapshotted (missing counts: it
   * is then new when it appears) and a later change is recorded against that snapshot.
   */
  async noticeToolCall(turn: ReviewTurn, call: ToolCallItem): Promise<void> {
    for (const p of filesNamedBy(call)) {
      const uri = vscode.Uri.file(p);
      const diff = call.content.find((c) => c.type === 'diff' && c.path === p);
      try {
        const before = await this.diffReview.beforeOf(turn.scopedId, uri);
        await this.diffReview.tracker.recordAgentTouchedFile({
          sessionId: turn.scopedId,
          turnId: turn.turnId,
          uri: uri.toString(),
          before,
          ...(diff?.type === 'diff' ? { diff: { oldText: diff.oldText, newText: diff.newText } } : {}),
        });
      } catch (e) {
        this.log.debug(`diff review: could not check ${p}: ${errorMessage(e)}`);
      }
    }
  }

  /**
   * The files a permission request names, as they are before the answer: an agent waits for it before
   * writing, so this is the baseline of a change it then makes itself (a new file included), whatever the
   * timing of its tool-call updates.
   */
  async snapshotAsked(turn: ReviewTurn, toolCall: unknown): Promise<void> {
    const call = toolCallFromRequest(toolCall);
    if (!call) return;
    for (const p of filesNamedBy(call)) {
      await this.diffReview.tracker
        .snapshot({ sessionId: turn.scopedId, turnId: turn.turnId, uri: vscode.Uri.file(p).toString() })
        .catch((e: unknown) => this.log.debug(`diff review: could not snapshot ${p}: ${errorMessage(e)}`));
    }
  }

  /** The first location of a tool call, for "follow the agent" in the editor. */
  follow(call: ToolCallItem): void {
    const first = call.locations[0];
    if (first) void this.diffReview.follow.followLocation(first.path, first.line).catch(() => undefined);
  }
}
