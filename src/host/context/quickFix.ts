// The `Ask <agent> to fix` quick fix on every diagnostic. Registered when the services start; the rest of
// Add to Chat loads when it runs.
import * as vscode from 'vscode';

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
      action.command = { command: 'switchboard.addToChat', title, arguments: [document.uri, d] };
      return action;
    });
  }
}
