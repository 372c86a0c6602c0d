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
  type Gathered = Awaited<ReturnType<Awaited<ReturnType<typeof loadAddToChat>>['gatherFor']>>;
  const run = async (gather: () => Promise<Gathered>) => {
    try {
      const { mentions, refusals } = await gather();
      await target.present(mentions, refusals.length ? refusals.join(' ') : undefined);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`Add to Chat: ${message}`);
      await target.present([], `Nothing was added to the chat: ${message}`);
    }
  };
  const selector: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];
  return [
    vscode.commands.registerCommand('switchboard.addToChat', (...args: unknown[]) => run(async () => (await loadAddToChat()).gatherFor(target, args))),
    vscode.languages.registerCodeActionsProvider(selector, new AskAgentToFix(() => target.agentName()), AskAgentToFix.metadata),
  ];
}
