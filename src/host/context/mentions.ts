// What an editor, a file or a folder becomes in the composer: a chip (MentionRef) that the prompt builder
// turns into the live buffer's text (a selection: exactly its lines) when the user sends.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import type { MentionRef } from '../../shared/chatState';

/** How many bytes are looked at to tell a binary file (a NUL byte among them). */
const BINARY_PROBE_BYTES = 8000;

/** 1-based inclusive lines of a selection; one that ends at the start of a line leaves that line out. */
export function selectionLines(selection: vscode.Selection): { startLine: number; endLine: number } {
  const startLine = selection.start.line + 1;
  let endLine = selection.end.line + 1;
  if (selection.end.character === 0 && selection.end.line > selection.start.line) endLine -= 1;
  return { startLine, endLine };
}

export function displayName(uri: vscode.Uri): string {
  return path.posix.basename(uri.path) || uri.toString();
}

/** A chip per non-empty selection of the editor (`name:3-9`), else the whole file. */
export function editorMentions(editor: vscode.TextEditor): MentionRef[] {
  const uri = editor.document.uri;
  const name = displayName(uri);
  const ranges = editor.selections.filter((s) => !s.isEmpty).map(selectionLines);
  if (ranges.length === 0) return [{ kind: 'file', uri: uri.toString(), label: name, attached: true }];
  return ranges.map((range) => ({
    kind: 'selection',
    uri: uri.toString(),
    label: range.startLine === range.endLine ? `${name}:${range.startLine}` : `${name}:${range.startLine}-${range.endLine}`,
    range,
    attached: true,
  }));
}

export type ResourceCheck = { kind: 'file' | 'folder' } | { kind: 'refused'; why: string };

/** Whether a file or folder can go to the agent: it exists, and a file is text (an open buffer always is). */
export async function checkResource(uri: vscode.Uri): Promise<ResourceCheck> {
  const name = displayName(uri);
  if (vscode.workspace.textDocuments.some((d) => !d.isClosed && d.uri.toString() === uri.toString())) return { kind: 'file' };
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    return { kind: 'refused', why: `${name} was not added: it no longer exists.` };
  }
  if (stat.type & vscode.FileType.Directory) return { kind: 'folder' };
  try {
    if (isBinary(await head(uri))) {
      return { kind: 'refused', why: `${name} was not added: it is a binary file, and the agent takes text. Mention a text file instead.` };
    }
  } catch {
    return { kind: 'refused', why: `${name} was not added: it could not be read.` };
  }
  return { kind: 'file' };
}

/** The first bytes of a file: enough to tell a binary one without reading a huge file whole. */
async function head(uri: vscode.Uri): Promise<Uint8Array> {
  if (uri.scheme !== 'file') return (await vscode.workspace.fs.readFile(uri)).subarray(0, BINARY_PROBE_BYTES);
  const handle = await fsp.open(uri.fsPath, 'r');
  try {
    const buffer = new Uint8Array(BINARY_PROBE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_PROBE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

export function resourceMention(uri: vscode.Uri, kind: 'file' | 'folder'): MentionRef {
  return { kind, uri: uri.toString(), label: displayName(uri), attached: true };
}
