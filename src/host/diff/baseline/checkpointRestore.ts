// Writing a checkpoint's files back. One WorkspaceEdit of file operations: a file that exists is deleted
// and, where the checkpoint had it, created again with the exact bytes then. So the restore is byte for
// byte (no text model, no end-of-line or encoding conversion). Its undo is the chat's "Undo restore", which
// writes back the bytes the restore replaced, held here, the same way: VS Code's Ctrl+Z in an editor does
// not undo these file operations (tried in the real workbench: an editor of a restored file has no undo step
// for them). Files it must not touch are refused before anything is written.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointFilePlan } from './checkpointTrees';
import type { DiffContentProvider } from '../review/contentProvider';

/** A file and the bytes it is to have (null: it is not to exist). */
export interface FileTarget {
  path: string;
  target: Buffer | null;
}

export interface RestoreOutcome {
  restored: string[];
  failed: { path: string; reason: string }[];
  /** What the restored files held before: writing it back undoes the restore. */
  previous: FileTarget[];
}

/** Why this file cannot be restored now, or undefined when it can. */
export async function blockedReason(file: CheckpointFilePlan): Promise<string | undefined> {
  if (file.status === 'T') return 'it changed between a file and a symbolic link';
  const uri = vscode.Uri.file(file.path).toString();
  if (vscode.workspace.textDocuments.some((d) => !d.isClosed && d.isDirty && d.uri.toString() === uri)) return 'it has unsaved changes in an editor (save or revert them first)';
  const stat = await fsp.lstat(file.path).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.isDirectory()) return 'a folder has its name now';
  // Mode bits, not access(): the owner's read-only choice counts even where the process could write anyway.
  if ((stat.mode & 0o222) === 0) return 'it is read-only';
  return undefined;
}

/** Writes every target in one WorkspaceEdit and says which files now hold what they should. */
export async function writeTargets(files: readonly FileTarget[], label: string): Promise<RestoreOutcome> {
  const previous: FileTarget[] = [];
  for (const f of files) previous.push({ path: f.path, target: await fsp.readFile(f.path).catch(() => null) });
  const meta: vscode.WorkspaceEditEntryMetadata = { label, needsConfirmation: false };
  const edit = new vscode.WorkspaceEdit();
  files.forEach((f, i) => {
    const uri = vscode.Uri.file(f.path);
    if (previous[i].target !== null) edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    if (f.target !== null) edit.createFile(uri, { overwrite: true, contents: f.target }, meta);
  });
  const applied = files.length === 0 || (await vscode.workspace.applyEdit(edit));
  const restored: string[] = [];
  const failed: { path: string; reason: string }[] = [];
  for (const f of files) {
    const now = await fsp.readFile(f.path).catch(() => null);
    const ok = f.target === null ? now === null : now !== null && now.equals(f.target);
    if (ok) restored.push(f.path);
    else failed.push({ path: f.path, reason: applied ? 'the file did not take the checkpoint’s content' : 'VS Code refused the edit' });
  }
  return { restored, failed, previous: previous.filter((p) => restored.includes(p.path)) };
}

/** Opens a diff editor: the file now (left) and at the checkpoint (right). */
export async function openCheckpointDiff(provider: DiffContentProvider, file: FileTarget): Promise<void> {
  const name = path.basename(file.path);
  const exists = await fsp.stat(file.path).then(() => true, () => false);
  const left = exists ? vscode.Uri.file(file.path) : provider.put('', name, false);
  const right = provider.put(file.target === null ? '' : file.target.subarray(0, 8000).includes(0) ? '(binary file: restored byte for byte)' : file.target.toString('utf8'), name, false);
  const what = file.target === null ? 'did not exist' : exists ? 'at the checkpoint' : 'deleted since';
  await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (now ↔ ${what})`, { preview: true });
}
