// A shadow Git repository per folder: its Git directory lives in the extension's storage, its work tree
// is the user's folder, so the user's own repository (if any) is never touched. A snapshot puts the files
// that changed since the last one (by Git's stat check) into the shadow index, then `write-tree`: a turn's
// baseline costs little even in a large folder, and every snapshot stays readable by its tree id. Node
// only (no `vscode`). The work happens in git child processes, but starting one forks the extension host
// (milliseconds of its thread each), so nothing starts a git process whose answer is already known.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Files above this size are left out of snapshots (file events still notice them). */
export const MAX_SNAPSHOT_FILE_BYTES = 8 * 1024 * 1024;
/** Folders that are never the agent's reviewable work, whatever the folder's .gitignore says. */
const ALWAYS_EXCLUDED = ['node_modules/', '.svn/', '.hg/'];
const STAT_CONCURRENCY = 32;
/** A snapshot that would add more than this is refused (a home folder opened as the workspace, say). */
export const MAX_NEW_FILES = 200_000;
export const MAX_NEW_BYTES = 2 * 1024 * 1024 * 1024;
/** Where the refs that keep checkpoint trees live. */
const KEEP_REFS = 'refs/switchboard/checkpoints/';

export interface SnapshotResult {
  tree: string;
  /** Paths (relative, '/'-separated) left out because of their size. */
  tooLarge: string[];
}

export interface TreeChange {
  /** A added, M modified, D deleted, T type changed (file <-> symlink). */
  status: 'A' | 'M' | 'D' | 'T';
  /** Relative to the work tree, '/'-separated. */
  path: string;
}

/** Git could not be started (not installed, not on PATH). */
export class GitMissingError extends Error {}

/** The folder has more new or changed files than a snapshot takes. */
export class FolderTooLargeError extends Error {}

export class ShadowRepo {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly running = new Set<ChildProcess>();
  private disposed = false;
  /** The last tree written and the index it was written from (its file's identity): unchanged, no write-tree. */
  private written?: { tree: string; index: string };
  /** Trees this object has already kept (refs are never removed, so they stay kept). */
  private readonly kept = new Set<string>();

  private constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {}

  /** Opens (creating on first use) the shadow repository of `workTree` in `gitDir`. */
  static async open(gitDir: string, workTree: string): Promise<ShadowRepo> {
    const stat = await fsp.stat(workTree);
    if (!stat.isDirectory()) throw new Error(`${workTree} is not a folder`);
    const repo = new ShadowRepo(gitDir, workTree);
    await repo.serial(() => repo.init());
    return repo;
  }

  /** A snapshot of the work tree as it is now (respecting .gitignore, without large files). */
  snapshot(): Promise<SnapshotResult> {
    return this.serial(async () => {
      // One walk of the folder finds what differs from the last snapshot (Git's stat check); only those
      // files are hashed.
      const out = (await this.git(['ls-files', '-z', '-o', '-m', '-d', '--exclude-standard'])).toString('utf8');
      const changed = [...new Set(out.split('\0').filter((p) => p && !p.endsWith('/')))];
      if (changed.length > MAX_NEW_FILES) throw new FolderTooLargeError(`${changed.length} files changed since the last snapshot (at most ${MAX_NEW_FILES})`);
      const { tooLarge, bytes } = await this.sizes(changed);
      if (bytes > MAX_NEW_BYTES) throw new FolderTooLargeError(`${Math.round(bytes / 1024 / 1024)} MB changed since the last snapshot (at most ${MAX_NEW_BYTES / 1024 / 1024} MB)`);
      const update = changed.filter((p) => !tooLarge.includes(p));
      // Nothing to add and the index as it was when the last tree was written: that tree is this one.
      if (update.length === 0 && this.written && this.written.index === (await this.indexIdentity())) return { tree: this.written.tree, tooLarge };
      if (update.length > 0) {
        const input = update.join('\0') + '\0';
        await this.git(['update-index', '--add', '--remove', '-z', '--stdin'], { input }).catch(async (err: unknown) => {
          // An unreadable file fails update-index as a whole: add skips it and adds the rest.
          const specs = ['.', ...tooLarge.map((p) => `:(exclude,literal)${p}`)];
          await this.git(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: specs.join('\0'), okCodes: [0, 1] }).catch(() => {
            throw err;
          });
        });
      }
      const tree = (await this.git(['write-tree'])).toString('utf8').trim();
      this.written = { tree, index: await this.indexIdentity() };
      return { tree, tooLarge };
    });
  }

  /** Files that differ between two snapshots (a rename is a deletion plus an addition). */
  diff(from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return Promise.resolve([]);
    return this.serial(async () => {
      const out = (await this.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to])).toString('utf8');
      const parts = out.split('\0');
      const changes: TreeChange[] = [];
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const status = parts[i];
        if (status === 'A' || status === 'M' || status === 'D' || status === 'T') changes.push({ status, path: parts[i + 1] });
      }
      return changes;
    });
  }

  /** A file's bytes in a snapshot, or null when the snapshot has no such file. */
  async read(tree: string, relPath: string): Promise<Buffer | null> {
    return (await this.readMany(tree, [relPath])).get(relPath) ?? null;
  }

  /** One file by two git processes: for a name with a line break, which `cat-file --batch` cannot take. */
  private readOne(tree: string, relPath: string): Promise<Buffer | null> {
    return this.serial(async () => {
      const spec = `${tree}:${relPath}`;
      const type = await this.git(['cat-file', '-t', spec], { okCodes: [0, 128] }).then((b) => b.toString('utf8').trim());
      if (type !== 'blob') return null;
      return this.git(['cat-file', 'blob', spec]);
    });
  }

  /** Several files of a snapshot in one git process (null: not in the snapshot). */
  readMany(tree: string, relPaths: readonly string[]): Promise<Map<string, Buffer | null>> {
    return this.serial(async () => {
      const result = new Map<string, Buffer | null>();
      const batchable = relPaths.filter((p) => !/[\r\n]/.test(p));
      if (batchable.length > 0) {
        const out = await this.git(['cat-file', '--batch'], { input: batchable.map((p) => `${tree}:${p}\n`).join('') });
        let at = 0;
        for (const p of batchable) {
          const eol = out.indexOf(0x0a, at);
          if (eol < 0) throw new Error('git cat-file --batch: output cut short');
          const header = out.subarray(at, eol).toString('utf8').split(' ');
          at = eol + 1;
          if (header.length !== 3) {
            result.set(p, null); // "<spec> missing" (or ambiguous): not in the snapshot
            continue;
          }
          const size = Number(header[2]);
          result.set(p, header[1] === 'blob' ? Buffer.from(out.subarray(at, at + size)) : null);
          at += size + 1;
        }
      }
      return result;
    }).then(async (result) => {
      // A name with a line break cannot go through --batch.
      for (const p of relPaths) if (!result.has(p)) result.set(p, await this.readOne(tree, p));
      return result;
    });
  }

  /**
   * Keeps snapshots from Git's garbage collection: a ref per tree (checkpoints name them for as long as
   * their transcript lives). Trees are otherwise unreferenced objects that a `git gc` would prune.
   */
  keep(trees: readonly string[]): Promise<void> {
    const fresh = [...new Set(trees)].filter((t) => /^[0-9a-f]{40,64}$/.test(t) && !this.kept.has(t));
    if (fresh.length === 0) return Promise.resolve();
    return this.serial(async () => {
      await this.git(['update-ref', '--stdin'], { input: fresh.map((t) => `update ${KEEP_REFS}${t} ${t}\n`).join('') });
      for (const t of fresh) this.kept.add(t);
    });
  }

  /** Whether the repository still holds this tree (a removed or pruned shadow repository does not). */
  has(tree: string): Promise<boolean> {
    return this.serial(async () => {
      const out = await this.git(['cat-file', '-e', `${tree}^{tree}`], { okCodes: [0, 1, 128], exitCode: true });
      return out.toString() === '0';
    });
  }

  /** Whether snapshots leave this path out by rule (.gitignore, the excluded folders). */
  isIgnored(relPath: string): Promise<boolean> {
    return this.serial(async () => {
      const out = await this.git(['check-ignore', '-q', '--no-index', '--', relPath], { okCodes: [0, 1], exitCode: true });
      return out.toString() === '0';
    });
  }

  /** Kills the git processes still running; later calls fail. */
  dispose(): void {
    this.disposed = true;
    for (const child of this.running) child.kill('SIGKILL');
    this.running.clear();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async init(): Promise<void> {
    const fresh = await fsp.stat(path.join(this.gitDir, 'HEAD')).then(() => false, () => true);
    if (fresh) {
      await fsp.mkdir(this.gitDir, { recursive: true });
      await this.git(['init', '-q']);
    }
    const config: [string, string][] = [
      ['core.bare', 'false'],
      ['core.worktree', this.workTree],
      ['core.autocrlf', 'false'],
      ['core.safecrlf', 'false'],
      ['core.untrackedCache', 'true'],
      ['core.looseCompression', '1'],
      ['gc.auto', '0'],
      ['index.version', '4'],
      ['advice.addEmbeddedRepo', 'false'],
    ];
    if (fresh) for (const [k, v] of config) await this.git(['config', k, v]);
    const info = path.join(this.gitDir, 'info');
    await fsp.mkdir(info, { recursive: true });
    await fsp.writeFile(path.join(info, 'exclude'), `${ALWAYS_EXCLUDED.join('\n')}\n`);
    // Snapshots hold the exact bytes: no end-of-line conversion, no clean filters (LFS), whatever the
    // folder's .gitattributes say (info/attributes wins over them).
    await fsp.writeFile(path.join(info, 'attributes'), '* -text -filter -ident -working-tree-encoding\n');
  }

  /** The index file's identity (inode, size, modification time): Git replaces the file whenever it writes it. */
  private async indexIdentity(): Promise<string> {
    const st = await fsp.stat(path.join(this.gitDir, 'index'), { bigint: true }).catch(() => undefined);
    return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : 'none';
  }

  /** Which of these files are too large to snapshot, and the size of the others together. */
  private async sizes(paths: readonly string[]): Promise<{ tooLarge: string[]; bytes: number }> {
    const tooLarge: string[] = [];
    let bytes = 0;
    for (let i = 0; i < paths.length; i += STAT_CONCURRENCY) {
      const batch = paths.slice(i, i + STAT_CONCURRENCY);
      const sizes = await Promise.all(batch.map((p) => fsp.lstat(path.join(this.workTree, p)).then((s) => s.size, () => 0)));
      batch.forEach((p, j) => {
        if (sizes[j] > MAX_SNAPSHOT_FILE_BYTES) tooLarge.push(p);
        else bytes += sizes[j];
      });
    }
    return { tooLarge, bytes };
  }

  private git(args: string[], opts: { input?: string; okCodes?: number[]; exitCode?: boolean } = {}): Promise<Buffer> {
    if (this.disposed) return Promise.reject(new Error('the shadow repository was closed'));
    const okCodes = opts.okCodes ?? [0];
    return new Promise<Buffer>((resolve, reject) => {
      const child = spawn('git', ['--git-dir', this.gitDir, '--work-tree', this.workTree, ...args], {
        cwd: this.workTree,
        env: gitEnv(),
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      this.running.add(child);
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => (err = (err + b.toString('utf8')).slice(-2000)));
      child.on('error', (e: NodeJS.ErrnoException) => {
        this.running.delete(child);
        reject(e.code === 'ENOENT' ? new GitMissingError('git is not installed or not on PATH') : e);
      });
      child.on('close', (code) => {
        this.running.delete(child);
        if (code !== null && okCodes.includes(code)) resolve(opts.exitCode ? Buffer.from(String(code)) : Buffer.concat(out));
        else reject(new Error(`git ${args[0]} failed (${code ?? 'killed'}): ${err.trim()}`));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input ?? '');
    });
  }
}

/** The environment without the caller's Git variables (a hook's GIT_INDEX_FILE would redirect us) and config. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
}
