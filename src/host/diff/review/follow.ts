// Follow along: reveal the file and line an agent is working on without taking focus from the chat.
import * as path from 'path';
import * as vscode from 'vscode';
import { workspaceRoots } from './diffOpener';
import { isInsideAny } from '../inspect';
import type { DiffLogger } from '../types';

export const FOLLOW_SETTING = 'followAgent';

export class FollowAgent {
  constructor(private readonly log: DiffLogger) {}

  get enabled(): boolean {
    return vscode.workspace.getConfiguration('switchboard').get<boolean>(FOLLOW_SETTING, false);
  }

  /**
   * Open `file` at 1-based `line` in a preview editor, keeping focus where it is. Does nothing when
   * `switchboard.followAgent` is off (unless `force`), or for paths outside the workspace.
   */
  async followLocation(file: string, line?: number, force = false): Promise<boolean> {
    if (!force && !this.enabled) return false;
    if (!path.isAbsolute(file) || !isInsideAny(workspaceRoots(), file)) return false;
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const l = Math.min(Math.max((line ?? 1) - 1, 0), Math.max(doc.lineCount - 1, 0));
      const pos = new vscode.Position(l, 0);
      const editor = await vscode.window.showTextDocument(doc, { preserveFocus: true, preview: true, selection: new vscode.Range(pos, pos) });
      editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      return true;
    } catch (err) {
      // Binary, deleted or unreadable: following is best effort and must never interrupt the user.
      this.log.debug(`follow: cannot open ${file}: ${String(err)}`);
      return false;
    }
  }
}
