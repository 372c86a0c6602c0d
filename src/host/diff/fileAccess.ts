// Reading a file the way the user sees it (the open buffer, unsaved text included, else disk) and
// writing content back through WorkspaceEdit, so every restore lands on the editor's undo stack (Ctrl+Z).
import * as vscode from 'vscode';
import { saveOurEdit } from '../fs/saveOurEdit';
import { computeHunks } from './hunks';
import { MAX_DIFF_BYTES, looksBinary } from './inspect';

/** Files larger than this are not read at all (Undo of such a file needs no read: it compares by size first). */
const MAX_READ_BYTES = 64 * 1024 * 1024;

export type CurrentContent =
  | { kind: 'text'; text: string; fromBuffer: boolean }
  | { kind: 'missing' }
  | { kind: 'binary' }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'error'; message: string };

/**
 * Whether the file is again as it was before the agent changed it: the same text, or missing when it did
 * not exist (an atomic write's temp file renamed away, a file the agent created and removed). Nothing of
 * the agent's is left to review and nothing of the user's to lose.
 */
export function isAsBefore(baseline: string | null | undefined, current: CurrentContent): boolean {
  return current.kind === 'missing' ? baseline === null : current.kind === 'text' && baseline === current.text;
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === key);
}

/**
 * The file as the user has it: a dirty buffer's text, else the disk. A clean buffer is not trusted:
 * it lags behind writes made outside VS Code (the agent's own tools) and outlives deleted files.
 */
export async function readCurrent(uri: vscode.Uri): Promise<CurrentContent> {
  const doc = openDocument(uri);
  if (doc && (doc.isDirty || doc.isUntitled || uri.scheme !== 'file')) return { kind: 'text', text: doc.getText(), fromBuffer: true };
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return { kind: 'error', message: 'is a folder' };
    if (stat.size > MAX_READ_BYTES) return { kind: 'tooLarge', size: stat.size };
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (looksBinary(bytes)) return { kind: 'binary' };
    // TextDecoder drops a UTF-8 BOM like TextDocument.getText() does, so both sources compare equal.
    return { kind: 'text', text: new TextDecoder('utf-8').decode(bytes), fromBuffer: false };
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return { kind: 'missing' };
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}

function eolOf(text: string): 'crlf' | 'lf' | 'mixed' | 'none' {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf > 0 && lf > 0) return 'mixed';
  return crlf > 0 ? 'crlf' : 'lf';
}

export interface ApplyResult {
  /** False when the edit was refused by VS Code (e.g. the file is read-only). */
  ok: boolean;
  /** True when exact bytes needed a direct disk write that Ctrl+Z cannot undo (mixed line endings). */
  bypassedUndo?: boolean;
}

/**
 * Make `uri` contain exactly `target` (null = delete it). Edits are minimal (one replace per changed
 * hunk) so cursors and folding survive; the document is saved afterwards unless the user had unsaved
 * text in it before (their buffer state is theirs to save).
 */
export async function applyText(uri: vscode.Uri, target: string | null, label: string): Promise<ApplyResult> {
  const meta: vscode.WorkspaceEditEntryMetadata = { label, needsConfirmation: false };
  if (target === null) {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(uri, { ignoreIfNotExists: true }, meta);
    return { ok: await vscode.workspace.applyEdit(edit) };
  }
  const current = await readCurrent(uri);
  if (current.kind === 'missing') {
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { overwrite: true, contents: new TextEncoder().encode(target) }, meta);
    return { ok: await vscode.workspace.applyEdit(edit) };
  }
  const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
  if (!(await settled(doc))) {
    // A clean buffer that still shows older disk content (an outside write VS Code has not reloaded
    // yet): editing it would save over the newer file and fail. Nothing unsaved to lose: write bytes.
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(target));
    return { ok: true, bypassedUndo: true };
  }
  const wasDirty = doc.isDirty;
  const before = doc.getText();
  const targetEol = eolOf(target);
  const edits: [vscode.TextEdit, vscode.WorkspaceEditEntryMetadata][] = [];
  // Minimal edits are a nicety; above the diff limit a line diff costs seconds, so replace everything.
  const small = before.length <= MAX_DIFF_BYTES && target.length <= MAX_DIFF_BYTES;
  const hunks = small ? computeHunks(before, target) : undefined;
  if (hunks) {
    for (const h of hunks) {
      const range = new vscode.Range(doc.positionAt(h.oldOffset), doc.positionAt(h.oldOffset + h.oldText.length));
      edits.push([vscode.TextEdit.replace(range, h.newText), meta]);
    }
  } else {
    edits.push([vscode.TextEdit.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(before.length)), target), meta]);
  }
  // A TextDocument has one EOL and normalises inserted text to it; switch it when the target differs.
  const wantEol = targetEol === 'crlf' ? vscode.EndOfLine.CRLF : targetEol === 'lf' ? vscode.EndOfLine.LF : undefined;
  if (wantEol !== undefined && wantEol !== doc.eol) edits.push([vscode.TextEdit.setEndOfLine(wantEol), meta]);
  const edit = new vscode.WorkspaceEdit();
  edit.set(uri, edits);
  if (!(await vscode.workspace.applyEdit(edit))) return { ok: false };
  if (!wasDirty && (await saveOurEdit(doc, doc.version)) === 'failed') return { ok: false };
  if (targetEol === 'mixed' && !doc.isDirty && doc.getText() !== target) {
    // Mixed line endings cannot live in a text model: write the exact bytes (the buffer reloads).
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(target));
    return { ok: true, bypassedUndo: true };
  }
  return { ok: true };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** UTF-8 text on disk, or undefined (missing, not UTF-8: then the buffer is the only truth). */
async function diskText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** Wait (briefly) until a clean buffer shows what is on disk; false if it never caught up. */
async function settled(doc: vscode.TextDocument): Promise<boolean> {
  const deadline = Date.now() + 3000;
  for (;;) {
    if (doc.isDirty) return true;
    const disk = await diskText(doc.uri);
    if (disk === undefined || disk === doc.getText()) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}
