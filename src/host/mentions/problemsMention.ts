// `@Problems`: the diagnostics every language extension reports, for the active file or the whole workspace,
// with the line each one points at.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MentionCandidate } from '../../shared/chatState';
import type { MentionContent } from './mentionContent';

/** The most diagnostics one mention carries; the rest are counted. */
const MAX_DIAGNOSTICS = 500;

const SEVERITY = ['Error', 'Warning', 'Information', 'Hint'];

/** The active file's problems (when it has an editor) and the workspace's, one candidate per workspace folder. */
export function problemsCandidates(): MentionCandidate[] {
  const out: MentionCandidate[] = [];
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.uri.scheme === 'file') {
    const uri = editor.document.uri;
    const n = vscode.languages.getDiagnostics(uri).length;
    out.push({ kind: 'problems', uri: uri.toString(), label: `problems:${path.basename(uri.path)}`, detail: `${n} in the active file` });
  }
  const all = vscode.languages.getDiagnostics().reduce((n, [, d]) => n + d.length, 0);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    out.push({ kind: 'problems', uri: folder.uri.toString(), label: `problems:${folder.name}`, detail: `${all} in the workspace` });
  }
  return out;
}

/** The problems of the file at `uri`, or of every file below it when it is a folder, read now. */
export async function problemsContent(uri: vscode.Uri, label: string): Promise<MentionContent> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === uri.toString());
  const entries = folder
    ? vscode.languages.getDiagnostics().filter(([u]) => u.toString().startsWith(`${uri.toString()}/`) || u.toString() === uri.toString())
    : [[uri, vscode.languages.getDiagnostics(uri)] as [vscode.Uri, vscode.Diagnostic[]]];
  const where = folder ? `the workspace folder ${folder.name}` : vscode.workspace.asRelativePath(uri, false);
  const lines: string[] = [];
  let count = 0;
  for (const [file, diagnostics] of entries) {
    if (!diagnostics.length) continue;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
    for (const d of [...diagnostics].sort((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line)) {
      if (++count > MAX_DIAGNOSTICS) continue;
      lines.push(formatDiagnostic(file, d, doc));
    }
  }
  const head = count === 0 ? `No problems reported in ${where}.` : `${count} problem${count === 1 ? '' : 's'} in ${where}:`;
  const tail = count > MAX_DIAGNOSTICS ? [`… and ${count - MAX_DIAGNOSTICS} more`] : [];
  const text = [head, ...lines, ...tail].join('\n') + '\n';
  return { uri: `switchboard://problems/${encodeURI(folder ? folder.name : vscode.workspace.asRelativePath(uri, false))}`, name: label, mimeType: 'text/markdown', text, linkable: false };
}

function formatDiagnostic(file: vscode.Uri, d: vscode.Diagnostic, doc: vscode.TextDocument | undefined): string {
  const line = d.range.start.line + 1;
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  const origin = [d.source, code !== undefined ? String(code) : undefined].filter(Boolean).join(' ');
  const head = `- ${SEVERITY[d.severity] ?? 'Problem'} at ${vscode.workspace.asRelativePath(file, false)}:${line}:${d.range.start.character + 1}${origin ? ` (${origin})` : ''}: ${d.message}`;
  const source = doc && d.range.start.line < doc.lineCount ? doc.lineAt(d.range.start.line).text.trim() : undefined;
  return source ? `${head}\n  \`${source.slice(0, 300)}\`` : head;
}
