// The content of a session's folders at the start of a turn, taken before the prompt is sent so nothing
// the agent does can be in it: one shadow-Git snapshot per folder (shadowGit.ts). During the turn it
// answers "what was this file before the turn"; at the end it lists every file that differs, whoever wrote
// it and whether or not a tool call named it. Checkpoints reuse it: each turn's trees stay readable.
// Git loads only when the first turn starts; without git (or when a snapshot is too slow) a turn has no
// baseline and the changed files come from file events and tool calls alone, as the log says.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { looksBinary } from '../inspect';
import type { ShadowRepo, TreeChange } from './shadowGit';
import type { DiffLogger } from '../types';

/** How long the start of a turn waits for its snapshot (the first one of a large folder hashes every file). */
const DEFAULT_WAIT_MS = 15_000;
/** A turn that changes more files than this (a build, an install) lists the first ones only. */
export const MAX_CHANGED_FILES = 500;

export interface FolderSnapshot {
  folder: string;
  tree: string;
}

export interface BaselineChange {
  /** Absolute path. */
  path: string;
  status: TreeChange['status'];
  /** Text at the start of the turn; null = did not exist; undefined = not text (binary, not UTF-8). */
  before: string | null | undefined;
}

interface FolderBaseline extends FolderSnapshot {
  repo: ShadowRepo;
  tooLarge: Set<string>;
}

/** UTF-8 text, or undefined for bytes that are not (binary files have no text baseline). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (looksBinary(bytes)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** One turn's baseline: a snapshot of each of the session's folders. */
export class TurnBaseline {
  constructor(private readonly folders: readonly FolderBaseline[]) {}

  /** The snapshot of each folder (tree ids), for checkpoints. */
  get snapshots(): FolderSnapshot[] {
    return this.folders.map(({ folder, tree }) => ({ folder, tree }));
  }

  /** A file's text at the start of the turn: null = it did not exist; undefined = unknown (ignored, too large, not text, outside). */
  async before(fsPath: string): Promise<string | null | undefined> {
    const found = this.locate(fsPath);
    if (!found) return undefined;
    const { base, rel } = found;
    if (base.tooLarge.has(rel)) return undefined;
    const bytes = await base.repo.read(base.tree, rel);
    if (bytes) return decodeText(bytes);
    return (await base.repo.isIgnored(rel)) ? undefined : null;
  }

  /** Every file that differs from the baseline now (a snapshot of each folder again), at most MAX_CHANGED_FILES. */
  async changes(): Promise<{ changes: BaselineChange[]; truncated: number }> {
    const changes: BaselineChange[] = [];
    let truncated = 0;
    for (const base of this.folders) {
      const end = await base.repo.snapshot();
      const listed: TreeChange[] = [];
      for (const c of await base.repo.diff(base.tree, end.tree)) {
        const abs = path.join(base.folder, ...c.path.split('/'));
        if (changes.some((x) => x.path === abs) || listed.some((x) => x.path === c.path)) continue; // overlapping folders
        if (changes.length + listed.length >= MAX_CHANGED_FILES) truncated++;
        else listed.push(c);
      }
      const befores = await base.repo.readMany(base.tree, listed.filter((c) => c.status !== 'A').map((c) => c.path));
      for (const c of listed) {
        const bytes = befores.get(c.path) ?? null;
        changes.push({ path: path.join(base.folder, ...c.path.split('/')), status: c.status, before: c.status === 'A' ? null : bytes === null ? undefined : decodeText(bytes) });
      }
    }
    return { changes, truncated };
  }

  /** The innermost folder holding the path, and the path relative to it ('/'-separated). */
  private locate(fsPath: string): { base: FolderBaseline; rel: string } | undefined {
    let best: { base: FolderBaseline; rel: string } | undefined;
    for (const base of this.folders) {
      const rel = path.relative(base.folder, fsPath);
      if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (!best || base.folder.length > best.base.folder.length) best = { base, rel: rel.split(path.sep).join('/') };
    }
    return best;
  }
}

/** The shadow repositories of every folder a session works in, and the baselines of turns. */
export class Baselines {
  private readonly repos = new Map<string, Promise<ShadowRepo>>();
  /** The snapshot running per folder: one at a time, as they share the shadow repository's index. */
  private readonly running = new Map<string, Promise<FolderBaseline>>();
  /** Folders too large to snapshot: not tried again in this window. */
  private readonly tooLarge = new Set<string>();
  private gitMissing = false;
  /** Why the last `take` returned no baseline (said where a checkpoint is missing); undefined after a success. */
  lastProblem: string | undefined;

  constructor(
    /** Where the shadow repositories live (the extension's global storage). */
    private readonly storageDir: string,
    private readonly log: DiffLogger,
    private readonly waitMs = DEFAULT_WAIT_MS,
  ) {}

  /**
   * Snapshots the folders now. Undefined when that is not possible (no git, a folder that cannot be read,
   * a snapshot slower than the wait): the turn then goes on without a baseline, and the reason is logged.
   */
  async take(folders: readonly string[]): Promise<TurnBaseline | undefined> {
    // A folder too large for snapshots is left to file events; the others still get their baseline.
    const usable = folders.filter((f) => !this.tooLarge.has(f));
    if (this.gitMissing || usable.length === 0) {
      this.lastProblem = this.gitMissing ? 'git is missing' : 'the folder is too large';
      return undefined;
    }
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), this.waitMs)));
    const work = Promise.all(usable.map((f) => this.snapshotFolder(f)));
    try {
      const result = await Promise.race([work, slow]);
      if (result === 'slow') {
        // The snapshot goes on in the background, so the next turn's is quick; it may hold this turn's
        // first writes, so this turn does not use it.
        work.catch(() => undefined);
        this.lastProblem = 'the snapshot was too slow';
        this.log.warn(`diff review: the snapshot of ${folders.join(', ')} took over ${this.waitMs} ms; this turn's changed files come from file events and tool calls only.`);
        return undefined;
      }
      this.log.debug(`diff review: baseline of ${folders.join(', ')} in ${Date.now() - started} ms`);
      this.lastProblem = undefined;
      return new TurnBaseline(result);
    } catch (err) {
      const { FolderTooLargeError, GitMissingError } = await import('./shadowGit');
      this.lastProblem = err instanceof Error ? err.message : String(err);
      if (err instanceof FolderTooLargeError) {
        this.log.warn(`diff review: ${err.message}; changed files there come from file events and tool calls only.`);
      } else if (err instanceof GitMissingError) {
        this.gitMissing = true;
        this.log.warn('diff review: git was not found, so changed files come from file events and tool calls only (files an agent writes without naming them may be kept but not undone). Install git to catch every change.');
      } else {
        this.log.warn(`diff review: no baseline for this turn (${err instanceof Error ? err.message : String(err)}); changed files come from file events and tool calls only.`);
      }
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Starts snapshotting the folders in the background (a session opened there), so that its first turn
   * only hashes what changed since instead of the whole folder. Nothing is kept but the shadow index.
   */
  warm(folders: readonly string[]): void {
    if (this.gitMissing) return;
    for (const folder of folders.filter((f) => !this.tooLarge.has(f))) {
      this.snapshotFolder(folder).then(
        () => this.log.debug(`diff review: ${folder} snapshotted ahead of its first turn`),
        (err: unknown) => this.log.debug(`diff review: no early snapshot of ${folder}: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
  }

  /**
   * A baseline taken earlier, from its snapshots (checkpoints keep them per user message): its `changes()`
   * are what restoring the files to that point writes back (null before = delete the file).
   */
  async reopen(snapshots: readonly FolderSnapshot[]): Promise<TurnBaseline> {
    const folders = await Promise.all(snapshots.map(async (s) => ({ ...s, repo: await this.repo(s.folder), tooLarge: new Set<string>() })));
    return new TurnBaseline(folders);
  }

  dispose(): void {
    for (const repo of this.repos.values()) void repo.then((r) => r.dispose(), () => undefined);
    this.repos.clear();
  }

  /** A snapshot of the folder taken after any snapshot of it already running (they share its index). */
  private snapshotFolder(folder: string): Promise<FolderBaseline> {
    const previous = this.running.get(folder);
    const run = (previous ?? Promise.resolve()).catch(() => undefined).then(() => this.snapshotNow(folder));
    this.running.set(folder, run);
    const forget = () => {
      if (this.running.get(folder) === run) this.running.delete(folder);
    };
    run.then(forget, forget);
    return run;
  }

  private async snapshotNow(folder: string): Promise<FolderBaseline> {
    const repo = await this.repo(folder);
    const snap = await repo.snapshot().catch(async (err: unknown) => {
      const { FolderTooLargeError } = await import('./shadowGit');
      if (err instanceof FolderTooLargeError) {
        this.tooLarge.add(folder);
        throw new FolderTooLargeError(`${folder} is too large for a baseline (${err.message})`);
      }
      throw err;
    });
    if (snap.tooLarge.length > 0) this.log.debug(`diff review: ${snap.tooLarge.length} file(s) over the size limit are not in the baseline of ${folder}`);
    return { folder, repo, tree: snap.tree, tooLarge: new Set(snap.tooLarge) };
  }

  /** The folder's shadow repository (opened on first use). */
  repo(folder: string): Promise<ShadowRepo> {
    let repo = this.repos.get(folder);
    if (!repo) {
      const gitDir = path.join(this.storageDir, 'baselines', createHash('sha256').update(folder).digest('hex').slice(0, 24));
      repo = import('./shadowGit').then(({ ShadowRepo }) => ShadowRepo.open(gitDir, folder));
      this.repos.set(folder, repo);
      // A failed open is retried by the next turn.
      repo.catch(() => this.repos.delete(folder));
    }
    return repo;
  }
}
