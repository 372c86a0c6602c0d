// `@Changes`: the working tree's diff from the Git extension, one file or all of a repository's changes.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MentionCandidate } from '../../shared/chatState';
import { gitApi, repositoryFor, UNTRACKED, type GitChange, type GitRepository } from './gitApi';
import type { MentionContent } from './mentionContent';

/** Candidates for every repository's changed files, and "all changes" per repository; none when Git is unavailable. */
export async function changesCandidates(): Promise<MentionCandidate[]> {
  const api = await gitApi().catch(() => undefined);
  if (!api) return [];
  const out: MentionCandidate[] = [];
  for (const repo of api.repositories) {
    const changes = changedFiles(repo);
    const name = path.basename(repo.rootUri.path);
    out.push({ kind: 'changes', uri: repo.rootUri.toString(), label: `changes:${name}`, detail: `All ${changes.length} changed files` });
    for (const c of changes.slice(0, 200)) out.push({ kind: 'changes', uri: c.uri.toString(), label: `changes:${path.basename(c.uri.path)}`, detail: vscode.workspace.asRelativePath(c.uri) });
  }
  return out;
}

function changedFiles(repo: GitRepository): GitChange[] {
  const seen = new Map<string, GitChange>();
  for (const c of [...repo.state.indexChanges, ...repo.state.workingTreeChanges, ...(repo.state.untrackedChanges ?? [])]) seen.set(c.uri.toString(), seen.get(c.uri.toString()) ?? c);
  return [...seen.values()];
}

/** The unified diff of one file or of the whole repository at `uri`, read now. */
export async function changesContent(uri: vscode.Uri, label: string): Promise<MentionContent> {
  const api = await gitApi();
  const repo = await repositoryFor(api, uri);
  await repo.status();
  const all = uri.toString() === repo.rootUri.toString();
  const files = changedFiles(repo).filter((c) => all || c.uri.toString() === uri.toString());
  const diffs: string[] = [];
  for (const c of files) diffs.push(await fileDiff(repo, c));
  const rel = all ? path.basename(repo.rootUri.path) : vscode.workspace.asRelativePath(uri, false);
  const text = diffs.join('\n') || `No changes in ${rel}: the working tree matches HEAD.\n`;
  return { uri: `switchboard://changes/${encodeURI(rel)}`, name: label, mimeType: 'text/x-diff', text, linkable: false };
}

async function fileDiff(repo: GitRepository, change: GitChange): Promise<string> {
  const rel = path.posix.relative(repo.rootUri.path, change.uri.path);
  if (change.status !== UNTRACKED) {
    const diff = await repo.diffWithHEAD(change.uri.fsPath);
    if (diff.trim()) return diff.endsWith('\n') ? diff : `${diff}\n`;
  }
  // An untracked file has no diff against HEAD: it is all new.
  const bytes = await vscode.workspace.fs.readFile(change.uri).then((b) => b, () => undefined);
  if (!bytes) return `deleted or unreadable: ${rel}\n`;
  if (bytes.includes(0)) return `Binary file ${rel} (new)\n`;
  const lines = new TextDecoder().decode(bytes).replace(/\n$/, '').split('\n');
  return [`diff --git a/${rel} b/${rel}`, 'new file', '--- /dev/null', `+++ b/${rel}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n') + '\n';
}
