// Where Add to Chat puts its chips: the active session's composer (a session is opened first when none is).
import * as vscode from 'vscode';
import type { ChatViewProvider } from '../../chat/surfaces/chatViewProvider';
import type { ComposerTarget } from '../context/register';
import { normalizePolicy } from '../fs/fileConfinement';
import type { WorkspaceSettingsGate } from '../permissions/workspaceSettingsGate';
import type { SessionBackend } from '../session/sessionBackend';

export function composerTarget(backend: SessionBackend, chat: ChatViewProvider, settingsGate: WorkspaceSettingsGate, log: vscode.LogOutputChannel): ComposerTarget {
  return {
    agentName: () => {
      const id = backend.sessions.active?.agentId ?? backend.agents.defaultAgentId();
      return backend.agents.views().find((a) => a.id === id)?.name ?? id;
    },
    folders: () => {
      const session = backend.sessions.active;
      if (session) return [session.cwd, ...session.additionalDirectories];
      return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    },
    fileAccess: () => normalizePolicy(settingsGate.effective('fileAccess')),
    present: async (mentions, notice) => {
      if (mentions.length > 0 && !backend.sessions.activeTabId()) {
        await chat.addToComposer([]);
        try {
          await chat.controller.newSession(undefined);
        } catch (error) {
          // The chat shows why the session did not open (sign-in, no agent); the chips still wait in the composer.
          log.warn(`Add to Chat: no session opened: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await chat.addToComposer(mentions, notice);
    },
  };
}
