// A file's working-tree change as a unified diff, from the built-in Git extension's API (`vscode.git`).
import * as vscode from 'vscode';
import type { MentionRef } from '../../shared/chatState';
import { displayName } from './mentions';

interface GitRepository {
  diffWithHEAD(path: string): Promise<string>;
  diffIndexWithHEAD(path: string): Promise<string>;
}
interface GitApi {
  getRepository(uri: vscode.Uri): GitRepository | null;
}
interface GitExports {
  enabled: boolean;
  getAPI(version: 1): GitApi;
}

function isGitExports(value: unknown): value is GitExports {
  const v = value as Partial<GitExports> | undefined;
  return typeof v === 'object' && v !== null && typeof v.enabled === 'boolean' && typeof v.getAPI === 'function';
}

export type ChangeCapture = { mention: MentionRef } | { refused: string };

async function gitApi(): Promise<GitApi | string> {
  const extension = vscode.extensions.getExtension('vscode.git');
  if (!extension) return 'the built-in Git extension is disabled. Enable it (Extensions: @builtin git) to add changes.';
  // Not yet active: started here; an extension that fails to start is said, not thrown.
  let exports: unknown;
  try {
    exports = extension.isActive ? extension.exports : await extension.activate();
  } catch (error) {
    return `the built-in Git extension could not start (${error instanceof Error ? error.message : String(error)}). See the Git output, or reload the window.`;
  }
  if (!isGitExports(exports) || !exports.enabled) return 'Git is turned off in VS Code (the setting git.enabled). Turn it on to add changes.';
  return exports.getAPI(1);
}

/** The unified diff of the file's uncommitted change (unstaged, else staged; a new file whole). */
export async function captureChange(uri: vscode.Uri): Promise<ChangeCapture> {
  const name = displayName(uri);
  const api = await gitApi();
  if (typeof api === 'string') return { refused: `The change to ${name} was not added: ${api}` };
  const repository = api.getRepository(uri);
  if (!repository) return { refused: `The change to ${name} was not added: it is not in a Git repository VS Code has open.` };
  let diff = await repository.diffWithHEAD(uri.fsPath);
  if (!diff.trim()) diff = await repository.diffIndexWithHEAD(uri.fsPath);
  if (!diff.trim()) diff = await newFileDiff(uri);
  if (!diff.trim()) return { refused: `The change to ${name} was not added: Git shows no change in it.` };
  return { mention: { kind: 'diff', uri: uri.toString(), label: `${name} (changes)`, text: diff, attached: true } };
}

/** An untracked file has no diff in Git: all its lines are added. */
async function newFileDiff(uri: vscode.Uri): Promise<string> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const file = vscode.workspace.asRelativePath(uri, false);
  return [`--- /dev/null`, `+++ b/${file}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n');
}
