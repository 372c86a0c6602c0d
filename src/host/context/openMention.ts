// Opens what a chip names, in the composer or in a sent message: a file at its lines, a problem at its
// place, a change as the Git extension's diff, a folder's problems in the Problems view, and text the chip
// carries (a terminal's output, an earlier session, a diff without Git) in a read-only editor.
import * as vscode from 'vscode';
import type { MentionDocuments } from './mentionDocuments';
import { displayName } from './mentions';

/** What the chat's chip knows: the URI, and for a chip that carries text, the text. */
export interface OpenRequest {
  uri: string;
  kind?: string;
  /** 1-based inclusive lines. */
  range?: { startLine: number; endLine: number };
  text?: string;
  mimeType?: string;
}

export async function openMention(request: OpenRequest, documents: MentionDocuments): Promise<void> {
  let uri: vscode.Uri | undefined;
  try {
    uri = vscode.Uri.parse(request.uri, true);
  } catch {
    uri = undefined;
  }
  const diff = request.kind === 'diff' || request.kind === 'changes' || request.mimeType === 'text/x-diff';
  if (uri?.scheme === 'file') {
    const file = uri.with({ fragment: '' });
    const stat = await Promise.resolve(vscode.workspace.fs.stat(file)).catch(() => undefined);
    if (stat && stat.type & vscode.FileType.Directory) {
      if (request.kind === 'problems') return void (await vscode.commands.executeCommand('workbench.actions.view.problems'));
      if (diff) return void (await vscode.commands.executeCommand('workbench.view.scm'));
      return void (await vscode.commands.executeCommand('revealInExplorer', file));
    }
    if (stat && diff && (await openGitChange(file))) return;
    if (stat) return openAt(file, request.range ?? linesIn(uri.fragment));
    if (request.text === undefined) return void vscode.window.showWarningMessage(`Switchboard: ${displayName(file)} no longer exists.`);
  }
  if (request.text !== undefined) {
    const extension = diff ? '.diff' : request.mimeType === 'text/markdown' ? '.md' : '.txt';
    return documents.show(uri ? displayName(uri) : 'mention', request.text, extension);
  }
  // A chip of an earlier session or a terminal's last command before sending: read when the message goes.
  void vscode.window.showInformationMessage('Switchboard: what this mention holds is read when the message is sent; open it from the sent message.');
}

/** `L3-L9`, `L3-9` or `L5`: the lines a file URI's fragment names. */
function linesIn(fragment: string): OpenRequest['range'] {
  const m = /^L(\d+)(?:-L?(\d+))?$/.exec(fragment);
  if (!m) return undefined;
  const startLine = Number(m[1]);
  return { startLine, endLine: m[2] ? Number(m[2]) : startLine };
}

async function openAt(file: vscode.Uri, range: OpenRequest['range']): Promise<void> {
  const start = Math.max(0, (range?.startLine ?? 1) - 1);
  const end = Math.max(start, (range?.endLine ?? range?.startLine ?? 1) - 1);
  const selection = range ? new vscode.Range(start, 0, end, Number.MAX_SAFE_INTEGER) : undefined;
  await vscode.window.showTextDocument(file, { preview: true, ...(selection ? { selection } : {}) });
}

/** The file's working-tree change in the Git extension's diff editor; false when Git cannot show it. */
async function openGitChange(file: vscode.Uri): Promise<boolean> {
  try {
    await vscode.commands.executeCommand('git.openChange', file);
    return true;
  } catch {
    return false;
  }
}
