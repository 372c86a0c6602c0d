// The `Ask <agent> to fix` quick fix on every diagnostic. Registered when the services start; the rest of
// Add to Chat loads when it runs.
import * as vscode from 'vscode';

/** A diagnostic as plain data: the quick fix's command argument, or a problem read from the Problems view. */
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

/** `Ask <agent> to fix` on every diagnostic: puts the problem in the composer, sends nothing. */
export class AskAgentToFix implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly agentName: () => string | undefined) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const name = this.agentName();
    if (!name) return [];
    return context.diagnostics.map((d) => {
      const title = `Ask ${name} to fix`;
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [d];
      action.command = { command: 'switchboard.addToChat', title, arguments: [problemRef(document.uri, d)] };
      return action;
    });
  }
}
