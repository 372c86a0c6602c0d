// `switchboard.enterWhileRunning`: what Enter in the chat does while a turn of an agent that steers runs.
import * as vscode from 'vscode';
import type { EnterWhileRunning } from '../../../shared/chatState';

/** `switchboard.enterWhileRunning`: what Enter does while a turn of an agent that steers runs. */
export function enterWhileRunning(): EnterWhileRunning {
  return vscode.workspace.getConfiguration('switchboard').get<string>('enterWhileRunning') === 'steer' ? 'steer' : 'queue';
}

/** Calls `changed` when `switchboard.enterWhileRunning` changes (the sessions' views say what Enter does). */
export function onEnterWhileRunningChange(changed: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('switchboard.enterWhileRunning')) changed();
  });
}
