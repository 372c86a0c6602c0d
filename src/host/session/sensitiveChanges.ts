// A sensitive file (settings, hooks, CI, the agents' own configuration) the agent changed with its own
// tools, outside fs/*, so nobody was asked: said loudly in the session's chat, once per file and turn. The
// file is in the turn's changed files already (Keep / Undo there); a permission or agent the change adds
// to workspace settings waits for the user's confirmation (WorkspaceSettingsGate).
import * as vscode from 'vscode';
import type { ChangeTracker } from '../diff/changeTracker';
import type { SensitiveWrites } from '../fs/sensitiveWrites';
import type { SessionRegistry } from './sessionRegistry';

export interface SensitiveChangesOptions {
  tracker: Pick<ChangeTracker, 'onDidChange' | 'store'>;
  /** Writes through fs/write_text_file: the user was asked about those already. */
  fsWrites: vscode.Event<{ sessionId: string; turnId: string; path: string }>;
  sensitive: Pick<SensitiveWrites, 'patternFor'>;
  sessions: Pick<SessionRegistry, 'scoped'>;
}

export function watchSensitiveChanges(o: SensitiveChangesOptions): vscode.Disposable {
  const seen = new Set<string>();
  const key = (sessionId: string, turnId: string, fsPath: string): string => JSON.stringify([sessionId, turnId, fsPath]);
  // What is already listed when the window opens was reported in its own window.
  for (const e of o.tracker.store.all()) seen.add(e.key);
  const asked = new Set<string>();
  return vscode.Disposable.from(
    o.fsWrites((w) => asked.add(key(w.sessionId, w.turnId, vscode.Uri.file(w.path).fsPath))),
    o.tracker.onDidChange(() => {
      for (const entry of o.tracker.store.all()) {
        if (seen.has(entry.key)) continue;
        seen.add(entry.key);
        const uri = vscode.Uri.parse(entry.uri);
        if (uri.scheme !== 'file' || asked.has(key(entry.sessionId, entry.turnId, uri.fsPath))) continue;
        const pattern = o.sensitive.patternFor(uri.fsPath);
        if (pattern === undefined) continue;
        const shown = vscode.workspace.asRelativePath(uri, true);
        o.sessions.scoped(entry.sessionId)?.note(
          `The agent changed ${shown}: review it`,
          `${shown} is a sensitive file (${pattern}): it can change what runs or what is allowed, and the agent wrote it with its own tools, without asking. Open it from the changed files to Keep or Undo the change. Permissions, agents or MCP servers it adds to workspace settings do not apply until you confirm them.`,
          'warning',
        );
      }
    }),
  );
}
