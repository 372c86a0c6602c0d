// The built-in Git extension's API (`vscode.git`, getAPI(1)), typed only as far as the Changes mention
// uses it. Every way it can be missing is a MentionError with the way forward.
import * as vscode from 'vscode';
import { MentionError } from './mentionError';

export interface GitChange {
  readonly uri: vscode.Uri;
  /** Status.UNTRACKED is 7 in the Git extension's enum. */
  readonly status: number;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly workingTreeChanges: readonly GitChange[]; readonly indexChanges: readonly GitChange[]; readonly untrackedChanges?: readonly GitChange[] };
  status(): Promise<void>;
  /** The file's unified diff against HEAD (staged and unstaged changes). */
  diffWithHEAD(path: string): Promise<string>;
}

interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

interface GitExtensionExports {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

export const UNTRACKED = 7;

function isExports(v: unknown): v is GitExtensionExports {
  return typeof v === 'object' && v !== null && typeof (v as { getAPI?: unknown }).getAPI === 'function';
}

/** The Git API, or a MentionError saying why there is none (extension missing or disabled, `git.enabled` off). */
export async function gitApi(): Promise<GitApi> {
  const extension = vscode.extensions.getExtension('vscode.git');
  if (!extension) throw new MentionError('Not sent: the built-in Git extension is disabled, so Switchboard cannot read your changes.', 'Enable the "Git" extension (vscode.git) in the Extensions view, or remove the Changes mention.');
  const exports: unknown = extension.isActive ? extension.exports : await extension.activate().then((x: unknown) => x, () => undefined);
  if (!isExports(exports) || !exports.enabled) {
    throw new MentionError('Not sent: Git is turned off in VS Code (git.enabled), so Switchboard cannot read your changes.', 'Turn on the setting git.enabled, or remove the Changes mention.');
  }
  return exports.getAPI(1);
}

/** The repository that holds `uri`, opened if Git has not found it yet; a MentionError when there is none. */
export async function repositoryFor(api: GitApi, uri: vscode.Uri): Promise<GitRepository> {
  const repo = api.getRepository(uri) ?? (await api.openRepository?.(uri).catch(() => null)) ?? null;
  if (!repo) {
    throw new MentionError(
      `Not sent: ${vscode.workspace.asRelativePath(uri, true)} is not in a Git repository, so it has no changes to send.`,
      'Run "Git: Initialize Repository" for the folder, or remove the Changes mention.',
    );
  }
  return repo;
}
