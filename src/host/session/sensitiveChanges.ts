// A sensitive file (settings, hooks, CI, the agents' own configuration) the agent changed with its own
// tools, outside fs/*, so nobody was asked: said loudly in the session's chat, once per file and turn, and
// listed in the turn's changed files against the content it had before (Keep / Undo there). A permission
// or agent the change adds to workspace settings waits for the user's confirmation anyway
// (WorkspaceSettingsGate).
//
// The content before is known because sensitive files are few: their text is kept from when the services
// start and after every change, so the first change of a turn has its baseline even when the agent wrote
// the file at the very moment its tool call named it.
import * as vscode from 'vscode';
import { errorMessage } from '../../acp';
import type { ChangeTracker } from '../diff/changeTracker';
import { hostFlavor, isInsideRoot } from '../fs/fileConfinement';
import { DEFAULT_SENSITIVE_PATTERNS } from '../fs/sensitiveFiles';
import type { SensitiveWrites } from '../fs/sensitiveWrites';
import type { Session } from './session';

/** Git's own bookkeeping (index, refs, logs) changes under any git command, the editor's included: only
 * hooks and the config run or redirect anything. */
const GIT_CHURN = /[\\/]\.git[\\/](?!hooks[\\/]|config$)/i;
/** Baselines kept at most (files, and characters per file). */
const MAX_BASELINES = 300;
const MAX_BASELINE_CHARS = 1024 * 1024;

type Watched = Pick<Session, 'scopedId' | 'turn' | 'turnId' | 'cwd' | 'additionalDirectories' | 'note'>;

export interface SensitiveChangesOptions {
  tracker: Pick<ChangeTracker, 'onDidChange' | 'store' | 'recordAgentTouchedFile'>;
  sensitive: Pick<SensitiveWrites, 'patternFor' | 'onDidAllow'>;
  /** The open sessions. */
  sessions(): readonly Watched[];
  log: vscode.LogOutputChannel;
}

export function watchSensitiveChanges(o: SensitiveChangesOptions): vscode.Disposable {
  const fold = (p: string): string => (hostFlavor.caseInsensitive ? p.toLowerCase() : p);
  const key = (scopedId: string, turnId: string, fsPath: string): string => JSON.stringify([scopedId, turnId, fold(fsPath)]);
  const reported = new Set<string>();
  // Writes the user allowed through fs/write_text_file (they saw the diff), and the user's own saves.
  const allowed = new Set<string>();
  const userSaves = new Map<string, string>();
  const baselines = new Map<string, string>();
  const seenEntries = new Set(o.tracker.store.all().map((e) => e.key));

  const keepBaseline = (fsPath: string, text: string | undefined): void => {
    if (text === undefined || text.length > MAX_BASELINE_CHARS) return void baselines.delete(fold(fsPath));
    if (!baselines.has(fold(fsPath)) && baselines.size >= MAX_BASELINES) return;
    baselines.set(fold(fsPath), text);
  };

  const report = (session: Watched, turnId: string, fsPath: string): void => {
    const k = key(session.scopedId, turnId, fsPath);
    if (reported.has(k) || allowed.has(k)) return;
    const pattern = o.sensitive.patternFor(fsPath);
    if (pattern === undefined) return;
    reported.add(k);
    const shown = vscode.workspace.asRelativePath(fsPath);
    session.note(
      `The agent changed ${shown}: review it`,
      `${shown} is a sensitive file (${pattern}): it can change what runs or what is allowed, and the agent wrote it with its own tools, without asking. Keep or Undo the change in the changed files. Permissions, agents or MCP servers it adds to workspace settings do not apply until you confirm them.`,
      'warning',
    );
  };

  const onFileEvent = async (uri: vscode.Uri, created: boolean): Promise<void> => {
    if (uri.scheme !== 'file' || GIT_CHURN.test(uri.fsPath) || o.sensitive.patternFor(uri.fsPath) === undefined) return;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!stat || stat.type & vscode.FileType.Directory) return; // a folder appearing: its files tell what changed
    const before = baselines.get(fold(uri.fsPath)) ?? (created ? null : undefined);
    const now = await readText(uri);
    keepBaseline(uri.fsPath, now);
    const saved = userSaves.get(uri.toString());
    if (saved !== undefined && now === saved) return; // the echo of the user's own save
    for (const s of o.sessions()) {
      if (s.turn === 'idle' || ![s.cwd, ...s.additionalDirectories].some((root) => isInsideRoot(root, uri.fsPath))) continue;
      if (allowed.has(key(s.scopedId, s.turnId, uri.fsPath))) continue;
      report(s, s.turnId, uri.fsPath);
      await o.tracker
        .recordAgentTouchedFile({ sessionId: s.scopedId, turnId: s.turnId, uri: uri.toString(), before, changed: true })
        .catch((e: unknown) => o.log.warn(`sensitive files: could not list ${uri.fsPath} in the changed files: ${errorMessage(e)}`));
    }
  };

  // The sensitive files there are now: their text is the baseline of a first change.
  const globs = DEFAULT_SENSITIVE_PATTERNS.flatMap((p) => [`**/${p}`, `**/${p}/**`]);
  void Promise.resolve(vscode.workspace.findFiles(`{${globs.join(',')}}`, undefined, MAX_BASELINES)).then(
    async (uris) => {
      for (const uri of uris) if (!baselines.has(fold(uri.fsPath))) keepBaseline(uri.fsPath, await readText(uri));
    },
    (e: unknown) => o.log.warn(`sensitive files: could not list them: ${errorMessage(e)}`),
  );

  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange((uri) => void onFileEvent(uri, false)),
    watcher.onDidCreate((uri) => void onFileEvent(uri, true)),
    vscode.workspace.onDidSaveTextDocument((doc) => userSaves.set(doc.uri.toString(), doc.getText())),
    o.sensitive.onDidAllow((w) => {
      const session = o.sessions().find((s) => s.scopedId === w.sessionId);
      if (!session) return;
      allowed.add(key(session.scopedId, session.turnId, w.realPath));
      allowed.add(key(session.scopedId, session.turnId, w.path));
    }),
    o.tracker.onDidChange(() => {
      for (const entry of o.tracker.store.all()) {
        if (seenEntries.has(entry.key)) continue;
        seenEntries.add(entry.key);
        const uri = vscode.Uri.parse(entry.uri);
        const session = o.sessions().find((s) => s.scopedId === entry.sessionId);
        if (uri.scheme === 'file' && session) report(session, entry.turnId, uri.fsPath);
      }
    }),
  );
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
