// HostUi with the VS Code API: clipboard, insert at cursor, untitled editors, links, locations, plain resources.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostUi } from './chatBackend';
import { EXTERNAL_SCHEMES, REFUSED_SCHEMES } from './chipTarget';

function workspaceUri(p: string): vscode.Uri | undefined {
  if (path.isAbsolute(p)) return vscode.Uri.file(p);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root ? vscode.Uri.joinPath(root, p) : undefined;
}

export function createHostUi(log: vscode.LogOutputChannel): HostUi {
  const ui: HostUi = {
    async copy(text) {
      await vscode.env.clipboard.writeText(text);
    },
    async insertAtCursor(code) {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (!editor) {
        await ui.openInEditor(code);
        return;
      }
      await editor.edit((b) => {
        for (const sel of editor.selections) b.replace(sel, code);
      });
    },
    async openInEditor(code, language) {
      const doc = await vscode.workspace.openTextDocument({ content: code, language: language || undefined });
      await vscode.window.showTextDocument(doc, { preview: false });
    },
    async openLink(href) {
      let uri: vscode.Uri | undefined;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
        try {
          uri = vscode.Uri.parse(href, true);
        } catch {
          return;
        }
        if (EXTERNAL_SCHEMES.has(uri.scheme)) {
          // openExternal goes through VS Code's link protection (asks before opening untrusted domains).
          await vscode.env.openExternal(uri);
          return;
        }
        if (uri.scheme === 'file') {
          await ui.openLocation(uri.fsPath);
          return;
        }
        log.warn(`chat: refused to open a link with scheme "${uri.scheme}"`);
        return;
      }
      // Relative link: a workspace path, optionally with #L12.
      const m = /^([^#?]*)(?:#L?(\d+))?/.exec(href);
      if (m?.[1]) await ui.openLocation(decodeURIComponent(m[1]), m[2] ? Number(m[2]) : undefined);
    },
    async openLocation(p, line) {
      const uri = workspaceUri(p);
      if (!uri) return;
      const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
      if (!stat) {
        void vscode.window.showWarningMessage(`File not found: ${p}`);
        return;
      }
      if (stat.type & vscode.FileType.Directory) {
        await vscode.commands.executeCommand('revealInExplorer', uri);
        return;
      }
      const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
      await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
    },
    async openResource(uriText) {
      let uri: vscode.Uri | undefined;
      try {
        uri = vscode.Uri.parse(uriText, true);
      } catch {
        return;
      }
      const scheme = uri.scheme.toLowerCase();
      if (EXTERNAL_SCHEMES.has(scheme)) return ui.openLink(uriText);
      if (REFUSED_SCHEMES.has(scheme)) return;
      if (scheme === 'file') return ui.openLocation(uri.fsPath);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    log(level, message) {
      if (level === 'error') log.error(message);
      else if (level === 'warn') log.warn(message);
      else log.info(message);
    },
    showError(message) {
      void vscode.window.showErrorMessage(message);
    },
  };
  return ui;
}
