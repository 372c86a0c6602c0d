// The `@` list's own VS Code part: the active selection, open editors, workspace files and their folders,
// fuzzy-ranked. Loads with the first `@` query.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MentionCandidate } from '../shared/chatState';
import { labelThenDetail, rankByFuzzy } from '../shared/fuzzy';

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
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
