// A problem (diagnostic) as a chip: its message, source, code, severity and range with the lines around it,
// taken when it is added, while VS Code still reports it.
import * as vscode from 'vscode';
import type { MentionRef } from '../../shared/chatState';
import { displayName } from './mentions';

/** Lines shown before and after the problem's range. */
const CONTEXT_LINES = 3;

/** A diagnostic as plain data, taken when the quick fix runs. */
export interface ProblemRef {
  uri: string;
  message: string;
  source?: string;
  code?: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  /** 0-based, as in vscode.Range. */
  range: { startLine: number; startCharacter: number; endLine: number; endCharacter: number };
}

const SEVERITY: Record<vscode.DiagnosticSeverity, ProblemRef['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function codeText(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

export function problemRef(uri: vscode.Uri, d: vscode.Diagnostic): ProblemRef {
  const code = codeText(d.code);
  return {
    uri: uri.toString(),
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(code !== undefined ? { code } : {}),
    severity: SEVERITY[d.severity],
    range: { startLine: d.range.start.line, startCharacter: d.range.start.character, endLine: d.range.end.line, endCharacter: d.range.end.character },
  };
}


export type ProblemCapture = { mention: MentionRef } | { refused: string };

/** The chip of a problem VS Code still reports; the lines around it from the live buffer, else the disk. */
export async function captureProblem(problem: ProblemRef): Promise<ProblemCapture> {
  const uri = vscode.Uri.parse(problem.uri);
  const name = displayName(uri);
  const reported = vscode.languages.getDiagnostics(uri).some((d) => d.message === problem.message && d.range.start.line === problem.range.startLine);
  if (!reported) {
    return { refused: `The problem in ${name} was not added: VS Code no longer reports it (its file was closed, or it was fixed). Open the file and try again.` };
  }
  const lines = await linesOf(uri);
  const { startLine, startCharacter, endLine, endCharacter } = problem.range;
  const where = `${name}:${startLine + 1}:${startCharacter + 1}-${endLine + 1}:${endCharacter + 1}`;
  const origin = [problem.source, problem.code].filter((s) => s !== undefined && s !== '').join(' ');
  const header = `${problem.severity[0].toUpperCase()}${problem.severity.slice(1)}${origin ? ` (${origin})` : ''} at ${where}: ${problem.message}`;
  const text = lines ? `${header}\n${excerpt(lines, startLine, endLine)}` : header;
  return {
    mention: {
      kind: 'diagnostic',
      uri: uri.toString(),
      label: `${name}:${startLine + 1} ${problem.severity}`,
      range: { startLine: startLine + 1, endLine: endLine + 1 },
      text,
      attached: true,
    },
  };
}

async function linesOf(uri: vscode.Uri): Promise<string[] | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.toString() === uri.toString());
  if (open) return open.getText().split(/\r?\n/);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri)).split(/\r?\n/);
  } catch {
    return undefined;
  }
}

/** The problem's lines with CONTEXT_LINES around them, numbered, the problem's own marked with `>`. */
function excerpt(lines: string[], startLine: number, endLine: number): string {
  const from = Math.max(0, startLine - CONTEXT_LINES);
  const to = Math.min(lines.length - 1, endLine + CONTEXT_LINES);
  const width = String(to + 1).length;
  const out: string[] = [];
  for (let i = from; i <= to; i++) out.push(`${i >= startLine && i <= endLine ? '>' : ' '}${String(i + 1).padStart(width)} | ${lines[i]}`);
  return out.join('\n');
}
