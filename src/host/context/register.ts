// Registers Add to Chat and the `Ask <agent> to fix` quick fix when the services start. What each entry
// point becomes (addToChat.ts and the readers it uses) loads the first time one runs.
import * as vscode from 'vscode';
import type { MentionRef } from '../../shared/chatState';
import type { FileAccessPolicy } from '../fs/fileConfinement';
import { AskAgentToFix } from './quickFix';

/** What Add to Chat needs from the sessions and the chat. */
export interface ComposerTarget {
  /** The agent a quick fix names: the active session's, else the default one. */
  agentName(): string | undefined;
  /** The folders the agent works in: the active session's, else the workspace's. */
  folders(): readonly string[];
  fileAccess(): FileAccessPolicy;
  /** Shows the chat with a session (opening one when none is) and adds the chips to its composer, with the notice. */
  present(mentions: MentionRef[], notice?: string): Promise<void>;
}

const loadAddToChat = () => import('./addToChat');

export function registerAddToChat(target: ComposerTarget, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const selector: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];
  return [
    vscode.commands.registerCommand('switchboard.addToChat', async (...args: unknown[]) => (await loadAddToChat()).addToChat(target, log, args)),
    vscode.languages.registerCodeActionsProvider(selector, new AskAgentToFix(() => target.agentName()), AskAgentToFix.metadata),
  ];
}
