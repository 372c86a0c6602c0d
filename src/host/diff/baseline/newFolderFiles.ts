// The files in a folder that has just appeared. VS Code's recursive watcher (parcel, inotify on Linux) starts
// watching a new folder only when it has seen it appear, so what is written into it at once (`mkdir -p a/b &&
// echo hi > a/b/c.txt`) is not reported, nor anything in a folder made inside it in the same instant; measured
// in code-server 4.100: 7 of 8 files written at once into a new nested folder went unreported. Whoever turns
// file events into changes lists a new folder's files itself.
import * as vscode from 'vscode';

/** Folders read at most in one listing (a large tree moved in is not walked whole). */
const MAX_FOLDERS = 200;

/**
 * Up to `limit` files under `folder`, breadth first; folders named in `skip` are not entered, nor symbolic
 * links to folders.
 */
export async function filesInNewFolder(folder: vscode.Uri, limit: number, skip: ReadonlySet<string>): Promise<vscode.Uri[]> {
  const files: vscode.Uri[] = [];
  const pending = [folder];
  for (let read = 0; pending.length > 0 && read < MAX_FOLDERS && files.length < limit; read++) {
    const dir = pending.shift() as vscode.Uri;
    const entries = await Promise.resolve(vscode.workspace.fs.readDirectory(dir)).catch(() => []);
    for (const [name, type] of entries) {
      if (type & vscode.FileType.SymbolicLink && type & vscode.FileType.Directory) continue;
      const uri = vscode.Uri.joinPath(dir, name);
      if (type & vscode.FileType.Directory) {
        if (!skip.has(name)) pending.push(uri);
      } else if (type & vscode.FileType.File && files.push(uri) >= limit) {
        break;
      }
    }
  }
  return files;
}
