// Checkpoints over the turn baselines: what restoring the files to before a user message writes back,
// and which of those files the user changed meanwhile. Each turn has a snapshot at its start (the
// baseline) and one at its end; what changed between one turn's end and the next one's start, or since
// the last turn ended, is the user's work, not the agent's. Node only: the work runs in git processes.
import * as path from 'node:path';
import type { Baselines, FolderSnapshot } from './baselines';
import type { ShadowRepo, TreeChange } from './shadowGit';

/** One turn as a checkpoint remembers it: the folders at its start and, once it ended, at its end. */
export interface CheckpointTurn {
  begin: FolderSnapshot[];
  end?: FolderSnapshot[];
}

export interface CheckpointFilePlan {
  /** Absolute path. */
  path: string;
  status: TreeChange['status'];
  /** The bytes at the checkpoint; null: the file did not exist then (restoring deletes it). */
  target: Buffer | null;
  /** Changed by the user since the checkpoint (between turns): left alone unless the user says so. */
  userEdited: boolean;
}

/** The checkpoint's snapshot is no longer in the shadow repository. */
export class SnapshotGoneError extends Error {}

export class CheckpointTrees {
  constructor(private readonly baselines: Baselines) {}

  /** Why the last snapshot could not be taken (the folder too large, no git...). */
  get lastProblem(): string | undefined {
    return this.baselines.lastProblem;
  }

  /** A snapshot of the folders now, kept from garbage collection; or why there is none. */
  async take(folders: readonly string[]): Promise<{ snapshots?: FolderSnapshot[]; problem?: string }> {
    const baseline = await this.baselines.take(folders);
    if (!baseline) return { problem: this.baselines.lastProblem ?? 'no snapshot could be taken' };
    await this.keep(baseline.snapshots);
    return { snapshots: baseline.snapshots };
  }

  /** Keeps these snapshots' trees from garbage collection. */
  async keep(snapshots: readonly FolderSnapshot[]): Promise<void> {
    for (const s of snapshots) await (await this.baselines.repo(s.folder)).keep([s.tree]);
  }

  /**
   * Every file that differs now from the first turn's start, with its bytes then, and whether the user
   * changed it since (between the turns, or after the last one ended). `turns`: the checkpoint's turn and
   * every later one, in order.
   */
  async plan(turns: readonly CheckpointTurn[]): Promise<CheckpointFilePlan[]> {
    const first = turns[0];
    if (!first) return [];
    const files: CheckpointFilePlan[] = [];
    const seen = new Set<string>();
    for (const base of first.begin) {
      const repo = await this.baselines.repo(base.folder);
      if (!(await repo.has(base.tree))) throw new SnapshotGoneError(`the snapshot of ${base.folder} is no longer in Switchboard's storage`);
      const now = (await repo.snapshot()).tree;
      const userPaths = await this.userChanges(repo, base.folder, turns, now);
      const changes = (await repo.diff(base.tree, now)).filter((c) => !seen.has(abs(base.folder, c.path)));
      const targets = await repo.readMany(base.tree, changes.filter((c) => c.status !== 'A').map((c) => c.path));
      for (const c of changes) {
        const file = abs(base.folder, c.path);
        seen.add(file);
        files.push({ path: file, status: c.status, target: c.status === 'A' ? null : (targets.get(c.path) ?? null), userEdited: userPaths.has(c.path) });
      }
    }
    return files.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Paths (relative) changed outside the agent's turns: from each turn's end to the next one's start, and since the last end. */
  private async userChanges(repo: ShadowRepo, folder: string, turns: readonly CheckpointTurn[], now: string): Promise<Set<string>> {
    const treeOf = (snaps: readonly FolderSnapshot[] | undefined) => snaps?.find((s) => s.folder === folder)?.tree;
    const gaps: [string | undefined, string | undefined][] = turns.map((t, i) => [treeOf(t.end), i + 1 < turns.length ? treeOf(turns[i + 1].begin) : now]);
    const paths = new Set<string>();
    for (const [from, to] of gaps) {
      // A turn without an end snapshot (the window closed during it) cannot tell the user's edits apart.
      if (!from || !to || from === to || !(await repo.has(from)) || !(await repo.has(to))) continue;
      for (const c of await repo.diff(from, to)) paths.add(c.path);
    }
    return paths;
  }
}

function abs(folder: string, rel: string): string {
  return path.join(folder, ...rel.split('/'));
}
