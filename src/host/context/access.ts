// Add to Chat of a file outside the folders the agent works in follows `switchboard.fileAccess`, as the agent's
// own reads do (host/fs/fileConfinement.ts): "deny" refuses it, "ask" asks the user, "allow" adds it.
import * as vscode from 'vscode';
import { isInsideRoot, resolveRealPath, type FileAccessPolicy } from '../fs/fileConfinement';
import { displayName } from './mentions';

/** Undefined when the file may be added; else why not, for the chat. */
export async function outsideRefusal(uri: vscode.Uri, folders: readonly string[], policy: FileAccessPolicy): Promise<string | undefined> {
  if (uri.scheme !== 'file' || policy === 'allow') return undefined;
  const [real, roots] = await Promise.all([resolveRealPath(uri.fsPath), Promise.all(folders.map((f) => resolveRealPath(f)))]);
  if (roots.some((root) => isInsideRoot(root, real))) return undefined;
  const name = displayName(uri);
  if (policy === 'deny') {
    return `${name} was not added: it is outside the session's folders and switchboard.fileAccess is "deny". Add its folder to the workspace, or change that setting.`;
  }
  const add = 'Add to Chat';
  const choice = await vscode.window.showWarningMessage(`${real} is outside the session's folders. Give it to the agent anyway?`, { modal: true }, add);
  return choice === add ? undefined : `${name} was not added: it is outside the session's folders.`;
}
