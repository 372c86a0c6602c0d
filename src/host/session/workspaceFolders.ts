// Where sessions run: the first file workspace folder (the home folder without one); the agent gets the
// other folders as additionalDirectories.
import * as vscode from 'vscode';
import * as os from 'node:os';

export function workspaceCwd(): string {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath ?? os.homedir();
}

export function additionalDirectories(cwd: string): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file' && f.uri.fsPath !== cwd).map((f) => f.uri.fsPath);
}
