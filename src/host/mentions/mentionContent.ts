// What one mention resolves to before it goes out, and the file kinds' reading: the live buffer (unsaved
// edits included) or the file on disk, confined by `switchboard.fileAccess`, text only.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MentionRef } from '../../shared/chatState';
import { decideAccess, resolveRealPath, type FileAccessPolicy } from '../fs/fileConfinement';
import { MentionError } from './mentionError';

export interface MentionContent {
  /** The resource's URI: the file (with `#L3-L9` for a range), or `switchboard://…` for generated text. */
  uri: string;
  name: string;
  mimeType?: string;
  /** The text to embed; undefined for a folder, which only ever goes as a link. */
  text?: string;
  /** A real file or folder the agent can open itself, so a `resource_link` says all it needs. */
  linkable: boolean;
}

/** A file read refuses past this, before the prompt budget would refuse it anyway. */
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** `file:///a.ts#L3-L9` for ranges, the convention agents (and Zed) use. */
export function withLines(uri: string, range: MentionRef['range']): string {
  if (!range) return uri;
  const { startLine, endLine } = range;
  return `${uri}#L${startLine}${endLine !== startLine ? `-L${endLine}` : ''}`;
}

/**
 * Refuses a file outside the session's folders when `switchboard.fileAccess` is `deny`. Under `ask` the
 * user's own mention is the answer (they picked the file), so it goes.
 */
export async function checkAccess(uri: vscode.Uri, label: string, folders: readonly string[], policy: FileAccessPolicy): Promise<void> {
  if (uri.scheme !== 'file') return;
  const [real, roots] = await Promise.all([resolveRealPath(uri.fsPath), Promise.all(folders.map((f) => resolveRealPath(f)))]);
  if (decideAccess({ realPath: real, realRoots: roots, op: 'read', policy }).kind === 'deny') {
    throw new MentionError(
      `Not sent: @${label} is outside the session's folders, and switchboard.fileAccess is "deny".`,
      `Nothing was sent. Remove the mention, add its folder to the workspace, or change switchboard.fileAccess. (${real})`,
    );
  }
}

/** A file, open editor, selection or folder mention, read now. */
export async function fileContent(mention: MentionRef, folders: readonly string[], policy: FileAccessPolicy, embed: boolean): Promise<MentionContent> {
  const uri = vscode.Uri.parse(mention.uri);
  const name = mention.label || path.basename(uri.path) || mention.uri;
  await checkAccess(uri, name, folders, policy);
  const link = withLines(mention.uri, mention.range);
  if (mention.kind === 'folder') return { uri: link, name, linkable: true };
  const mimeType = mimeFor(uri);
  if (!embed) return { uri: link, name, mimeType, linkable: true };
  const text = await readText(uri, name);
  return { uri: link, name, mimeType, text: mention.range ? lines(text, mention.range) : text, linkable: true };
}

export function lines(text: string, range: { startLine: number; endLine: number }): string {
  return text.split(/\r?\n/).slice(Math.max(0, range.startLine - 1), range.endLine).join('\n');
}

/** The open document's text, else the file's; a MentionError for a binary, missing or huge file. */
export async function readText(uri: vscode.Uri, label: string): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat) throw new MentionError(`Not sent: @${label} no longer exists.`, 'Nothing was sent. Remove the mention, or mention the file where it is now.');
  if (stat.type & vscode.FileType.Directory) throw new MentionError(`Not sent: @${label} is a folder, not a file.`, 'Nothing was sent. Mention it again from the Folders group.');
  if (stat.size > MAX_READ_BYTES) throw new MentionError(`Not sent: @${label} is too large to put into a message.`, 'Nothing was sent. Mention a part of it: select lines, then @ the selection.');
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (isBinary(bytes)) {
    throw new MentionError(`Not sent: @${label} is a binary file; a message can carry text files only.`, 'Nothing was sent. Remove the mention; the agent can still open the file by its path if it can read it.');
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** NUL bytes in the first 8 KB, as Git decides. */
function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

const MIME: Record<string, string> = {
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.py': 'text/x-python',
  '.rs': 'text/x-rust',
  '.go': 'text/x-go',
  '.html': 'text/html',
  '.css': 'text/css',
};

export function mimeFor(uri: vscode.Uri): string {
  return MIME[path.extname(uri.path).toLowerCase()] ?? 'text/plain';
}
