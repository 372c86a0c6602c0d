/**
 * Which files an agent may touch. Pure (node `path`/`fs` only, no `vscode`), so it is unit-tested in plain
 * Node. The bridges call FileConfinement.authorize() before every read, write and terminal cwd.
 *
 * Rules (the security model: an agent is arbitrary code, so its file and terminal requests stay inside the session's folders):
 *  - relative paths are rejected (-32602);
 *  - symlinks are resolved (also a dangling one, and a missing tail under a symlinked folder) before the check,
 *    so a link inside the workspace pointing outside is treated as outside;
 *  - inside the session's cwd or additionalDirectories: allowed (a write to a sensitive file, `.git` among
 *    them, still asks: sensitiveWrites.ts);
 *  - elsewhere `switchboard.fileAccess` decides: allow, deny, or ask the user. Only the user's own setting
 *    or a workspace value the user confirmed counts (host/permissions/workspaceSettingsGate.ts).
 */
import * as nodePath from 'node:path';
import { promises as fsp } from 'node:fs';
import { invalidParams } from '../../acp';

export type FileAccessPolicy = 'ask' | 'allow' | 'deny';
export type FileOp = 'read' | 'write';

export interface SessionRoots {
  cwd: string;
  additionalDirectories?: readonly string[];
}

/** The session an agent request belongs to, passed down with the request: its agent-qualified id and folders. */
export interface SessionScope {
  sessionId: string;
  roots: SessionRoots;
}

export type PathApi = Pick<typeof nodePath, 'relative' | 'isAbsolute' | 'sep' | 'resolve'>;

export interface PathFlavor {
  api: PathApi;
  /** Windows and macOS file systems are case-insensitive by default. */
  caseInsensitive: boolean;
}

export const hostFlavor: PathFlavor = {
  api: nodePath,
  caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
};

/** True when `target` is `root` or below it. Both must be absolute and normalised (or real) paths. */
export function isInsideRoot(root: string, target: string, flavor: PathFlavor = hostFlavor): boolean {
  const fold = (p: string): string => (flavor.caseInsensitive ? p.toLowerCase() : p);
  const rel = flavor.api.relative(fold(root), fold(target));
  if (rel === '') return true;
  // `..foo` is a legitimate child name; only a whole `..` segment leaves the root.
  if (rel === '..' || rel.startsWith('..' + flavor.api.sep)) return false;
  return !flavor.api.isAbsolute(rel); // another drive on Windows
}

const MAX_LINK_DEPTH = 40;

/**
 * fs.realpath that also works for paths that do not exist yet (a file the agent is about to create):
 * the longest existing prefix is resolved and the rest appended. A dangling symlink is followed by hand,
 * because writing through it would create its target.
 */
export async function resolveRealPath(p: string, depth = 0): Promise<string> {
  const abs = nodePath.resolve(p);
  try {
    return await fsp.realpath(abs);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  if (depth > MAX_LINK_DEPTH) throw new Error(`Too many levels of symbolic links: ${p}`);
  const link = await fsp.lstat(abs).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const target = await fsp.readlink(abs);
    return resolveRealPath(nodePath.resolve(nodePath.dirname(abs), target), depth + 1);
  }
  const parent = nodePath.dirname(abs);
  if (parent === abs) return abs;
  return nodePath.join(await resolveRealPath(parent, depth + 1), nodePath.basename(abs));
}

function isNotFound(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export type AccessReason = 'outside_roots';
export type AccessDecision = { kind: 'allow' } | { kind: 'deny'; reason: AccessReason } | { kind: 'ask'; reason: AccessReason };

/** The pure decision, on real paths. */
export function decideAccess(args: {
  realPath: string;
  realRoots: readonly string[];
  op: FileOp;
  policy: FileAccessPolicy;
  flavor?: PathFlavor;
}): AccessDecision {
  const flavor = args.flavor ?? hostFlavor;
  const inside = args.realRoots.some((r) => isInsideRoot(r, args.realPath, flavor));
  if (!inside) {
    if (args.policy === 'deny') return { kind: 'deny', reason: 'outside_roots' };
    if (args.policy === 'ask') return { kind: 'ask', reason: 'outside_roots' };
  }
  return { kind: 'allow' };
}

export interface AccessQuestion {
  sessionId: string;
  op: FileOp;
  /** The path the agent sent. */
  path: string;
  /** The path after resolving symlinks: what would really be touched. */
  realPath: string;
  reason: AccessReason;
  /** Ready-to-show sentence, e.g. for a modal or a chat card. */
  message: string;
}

export interface FileConfinementOptions {
  /** `switchboard.fileAccess`; read on every check so a settings change applies at once. */
  getPolicy(): FileAccessPolicy;
  /** Asks the user (extension.ts shows a modal); resolves true to allow. */
  askUser(question: AccessQuestion): Promise<boolean>;
}

export function normalizePolicy(v: unknown): FileAccessPolicy {
  return v === 'allow' || v === 'deny' ? v : 'ask';
}

export class FileConfinement {
  // Grants last for the session so one "yes" is not asked again for the same file and operation.
  private readonly granted = new Map<string, Set<string>>();
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(private readonly opts: FileConfinementOptions) {}

  /** Resolves to the real path to use, or throws a BridgeError (-32602) for relative paths and refusals. */
  async authorize(scope: SessionScope, path: string, op: FileOp): Promise<string> {
    if (typeof path !== 'string' || !nodePath.isAbsolute(path) || path.includes('\0')) {
      throw invalidParams(`Path must be absolute: ${JSON.stringify(path)}`, { reason: 'relative_path', path });
    }
    const { sessionId, roots } = scope;
    const dirs = [roots.cwd, ...(roots.additionalDirectories ?? [])].filter((d) => nodePath.isAbsolute(d));
    const [realPath, realRoots] = await Promise.all([resolveRealPath(path), Promise.all(dirs.map((d) => resolveRealPath(d)))]);
    const decision = decideAccess({ realPath, realRoots, op, policy: this.opts.getPolicy() });
    if (decision.kind === 'allow') return realPath;
    if (decision.kind === 'ask' && (await this.ask(sessionId, path, realPath, op, decision.reason))) return realPath;
    throw invalidParams(
      `Access outside the session's folders was ${decision.kind === 'deny' ? 'denied by switchboard.fileAccess' : 'not allowed by the user'}: ${realPath}`,
      { reason: 'access_denied', path: realPath, op, why: decision.reason },
    );
  }

  /** Forget the session's grants (session closed). */
  forgetSession(sessionId: string): void {
    this.granted.delete(sessionId);
  }

  private async ask(sessionId: string, path: string, realPath: string, op: FileOp, reason: AccessReason): Promise<boolean> {
    const key = `${op}\0${realPath}`;
    if (this.granted.get(sessionId)?.has(key)) return true;
    const askKey = `${sessionId}\0${key}`;
    let pending = this.asking.get(askKey);
    if (!pending) {
      const verb = op === 'read' ? 'read' : 'write';
      const message = `The agent wants to ${verb} ${realPath}, which is outside the session's folders. Allow?`;
      // A throwing askUser counts as "no": never allow by accident.
      pending = this.opts.askUser({ sessionId, op, path, realPath, reason, message }).then((v) => v === true, () => false);
      this.asking.set(askKey, pending);
      void pending.finally(() => this.asking.delete(askKey));
    }
    const ok = await pending;
    if (ok) {
      const set = this.granted.get(sessionId) ?? new Set<string>();
      set.add(key);
      this.granted.set(sessionId, set);
    }
    return ok;
  }
}
