// activate/deactivate only: build the context, register, report activation errors.
// (Skeleton: the integration commit replaces this with the real context.)
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Switchboard', { log: true });
  context.subscriptions.push(log);
  log.info('Switchboard activated');
}

export function deactivate(): void {}
