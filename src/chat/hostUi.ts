// HostUi with the VS Code API: clipboard, insert at cursor, untitled editors, links, locations, plain resources.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MentionCandidate } from '../shared/chatState';
import { labelThenDetail, rankByFuzzy } from '../shared/fuzzy';
import type { HostUi } from './chatBackend';
import { EXTERNAL_SCHEMES, REFUSED_SCHEMES } from './chipTarget';

function workspaceUri(p: string): vscode.Uri | undefined {
  if (path.isAbsolute(p)) return vscode.Uri.file(p);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root ? vscode.Uri.joinPath(root, p) : undefined;
}

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
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

/** Files, folders, open editors and the active selection, fuzzy-ranked by `query`. */
export async function queryMentionCandidates(query: string): Promise<MentionCandidate[]> {
  const out: MentionCandidate[] = [];
  const seen = new Set<string>();
  const add = (c: MentionCandidate) => {
    const key = `${c.kind}:${c.uri}:${c.range?.startLine ?? ''}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(c);
    }
  };
  const editor = vscode.window.activeTextEditor;
  if (editor && !editor.selection.isEmpty) {
    const s = editor.selection;
    const name = path.basename(editor.document.uri.path);
    add({
      kind: 'selection',
      uri: editor.document.uri.toString(),
      label: `${name}:${s.start.line + 1}-${s.end.line + 1}`,
      range: { startLine: s.start.line + 1, endLine: s.end.line + 1 },
      detail: 'Current selection',
    });
  }
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText) {
        add({ kind: 'editor', uri: input.uri.toString(), label: path.basename(input.uri.path), detail: relative(input.uri) });
      }
    }
  }
  const files = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git,dist,out}/**', 3000);
  const folders = new Set<string>();
  for (const f of files) {
    add({ kind: 'file', uri: f.toString(), label: path.basename(f.path), detail: relative(f) });
    let dir = path.posix.dirname(f.path);
    for (let i = 0; i < 4 && dir.length > 1; i++) {
      folders.add(dir);
      dir = path.posix.dirname(dir);
    }
  }
  for (const dir of folders) {
    const uri = vscode.Uri.file(dir).with({ scheme: 'file' });
    const rel = relative(uri);
    if (rel === uri.fsPath) continue; // outside the workspace
    add({ kind: 'folder', uri: uri.toString(), label: path.posix.basename(dir) + '/', detail: rel });
  }
  return rankByFuzzy(query, out, labelThenDetail, { limit: 50 });
}
