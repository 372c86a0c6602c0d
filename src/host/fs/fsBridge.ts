/**
 * fs/read_text_file and fs/write_text_file.
 *
 * Reads answer from the open TextDocument when there is one (so the agent sees unsaved edits), else from
 * disk: a line window streams only what it needs (textFileWindow.ts), a whole file goes through workspace.fs.
 *
 * Writes go through a WorkspaceEdit (so Ctrl+Z undoes them and open editors keep their state) and are then
 * saved (so commands the agent runs see the new content). Before each write, the text it replaces is kept in
 * WriteHistory. If the buffer had unsaved user edits, the agent's write still wins (the agent asked for that
 * content and its next steps depend on it) but nothing is lost silently: the user's text is in WriteHistory,
 * one Ctrl+Z brings it back, and onDidOverwriteUnsavedChanges fires so the chat can show the conflict.
 */
import * as vscode from 'vscode';
import * as nodePath from 'node:path';
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest, WriteTextFileResponse } from '../../acp';
import { errorMessage, internalError, invalidParams, isBridgeError, resourceNotFound } from '../../acp';
import { hostFlavor, type FileConfinement, type SessionRoots, type SessionScope } from './fileConfinement';
import { saveOurEdit } from './saveOurEdit';
import { decodeText, hasWindow, readLineWindow, windowBounds, type LineWindow } from './textFileWindow';
import type { SensitiveWrites } from './sensitiveWrites';
import type { WriteHistory, WriteRecord } from './writeHistory';

export interface FsBridgeOptions {
  confinement: FileConfinement;
  history: WriteHistory;
  /** Asks before every write to a sensitive file (settings, hooks, CI, the agents' own configuration). */
  sensitive: SensitiveWrites;
}

/** What the bridge knows of the session a request belongs to, passed down with the request. */
export interface FsRequestContext {
  roots: SessionRoots;
  /** The session's current prompt turn: WriteHistory and the diff review key its writes by it. */
  turnId: string;
  /** The agent that asked (a sensitive write's card names it). */
  agentName: string;
}

export interface UnsavedChangesOverwritten {
  record: WriteRecord;
  /** The user's unsaved buffer text that the agent's write replaced (also in record.before). */
  userText: string;
  /** What was saved on disk at that moment (record.diskBefore). */
  diskText: string | null;
}

export class FsBridge implements vscode.Disposable {
  private readonly writeEmitter = new vscode.EventEmitter<WriteRecord>();
  /** Writes not finished yet, per session. */
  private readonly inFlight = new Map<string, Set<Promise<void>>>();
  private readonly conflictEmitter = new vscode.EventEmitter<UnsavedChangesOverwritten>();
  /** Every successful agent write, with what it replaced (for the diff review). */
  readonly onDidWrite = this.writeEmitter.event;
  /** An agent write replaced unsaved user edits. */
  readonly onDidOverwriteUnsavedChanges = this.conflictEmitter.event;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly opts: FsBridgeOptions) {}

  /** The read rules of fs/read_text_file for a file the agent named and the user opens (a plan file): its real path. */
  authorizeRead(scope: SessionScope, path: string): Promise<string> {
    return this.opts.confinement.authorize(scope, path, 'read');
  }

  async readTextFile(req: ReadTextFileRequest, context: FsRequestContext): Promise<ReadTextFileResponse> {
    const real = await this.opts.confinement.authorize({ sessionId: req.sessionId, roots: context.roots }, req.path, 'read');
    const doc = findOpenDocument([req.path, real]);
    if (doc) return { content: documentWindow(doc, req) };
    const uri = vscode.Uri.file(real);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) throw isDirectory(real);
      // workspace.fs cannot read part of a file; a window streams from disk and stops when it has its lines.
      const content = hasWindow(req) ? await readLineWindow(real, req) : decodeText(await vscode.workspace.fs.readFile(uri), real);
      return { content };
    } catch (e) {
      throw mapFsError(e, real, 'read_failed');
    }
  }

  async writeTextFile(req: WriteTextFileRequest, context: FsRequestContext): Promise<WriteTextFileResponse> {
    const written = this.queueWrite(req, context);
    const inFlight = this.inFlight.get(req.sessionId) ?? new Set<Promise<void>>();
    this.inFlight.set(req.sessionId, inFlight.add(written));
    try {
      await written;
    } finally {
      inFlight.delete(written);
      if (inFlight.size === 0 && this.inFlight.get(req.sessionId) === inFlight) this.inFlight.delete(req.sessionId);
    }
    return {};
  }

  private async queueWrite(req: WriteTextFileRequest, context: FsRequestContext): Promise<void> {
    if (typeof req.content !== 'string') throw invalidParams('content must be a string', { reason: 'write_failed', path: req.path });
    const real = await this.opts.confinement.authorize({ sessionId: req.sessionId, roots: context.roots }, req.path, 'write');
    // One write at a time per file: two overlapping edits of one document would interleave.
    const key = hostFlavor.caseInsensitive ? real.toLowerCase() : real;
    const run = (this.queues.get(key) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.opts.sensitive.check({ sessionId: req.sessionId, agentName: context.agentName, path: req.path, realPath: real, content: req.content }))
      .then(() => this.write(req, real, context.turnId));
    this.queues.set(key, run);
    try {
      await run;
    } finally {
      if (this.queues.get(key) === run) this.queues.delete(key);
    }
  }

  /**
   * Resolves when the session's writes in progress have finished (failed ones included). Agents such as
   * OpenCode end a turn without waiting for the answers to their fs/write_text_file requests.
   */
  async settled(sessionId: string): Promise<void> {
    const inFlight = this.inFlight.get(sessionId);
    if (inFlight) await Promise.allSettled([...inFlight]);
  }

  /** The session closed: the files the user let it reach outside its folders are asked about again. */
  forgetSession(sessionId: string): void {
    this.opts.confinement.forgetSession(sessionId);
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.conflictEmitter.dispose();
  }

  private async write(req: WriteTextFileRequest, real: string, turnId: string): Promise<void> {
    const uri = vscode.Uri.file(real);
    let doc = findOpenDocument([req.path, real]);
    try {
      if (!doc) {
        const stat = await vscode.workspace.fs.stat(uri).then(
          (s) => s,
          () => undefined,
        );
        if (stat && stat.type & vscode.FileType.Directory) throw isDirectory(real);
        if (!stat) return await this.createFile(req, uri, real, turnId);
        doc = await vscode.workspace.openTextDocument(uri);
      }
      const before = doc.getText();
      const userEdits = doc.isDirty;
      const diskBefore = userEdits ? await readDisk(doc.uri) : undefined;
      if (before !== req.content || userEdits) await applyAndSave(doc, req.content);
      this.recordWrite(req, turnId, real, before, userEdits, diskBefore);
    } catch (e) {
      throw mapFsError(e, real, 'write_failed');
    }
  }

  /**
   * A file that did not exist: created, then given the whole content. Agents such as OpenCode also write
   * the file themselves without waiting for this request, so it may exist by now: the write still sets
   * the whole content (never inserts into what is there), and the file counts as added by the agent.
   */
  private async createFile(req: WriteTextFileRequest, uri: vscode.Uri, real: string, turnId: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(nodePath.dirname(real)));
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { ignoreIfExists: true });
    // VS Code refuses the create when the file appeared after the check: the agent wrote it; go on.
    const created = await vscode.workspace.applyEdit(edit);
    if (!created && !(await vscode.workspace.fs.stat(uri).then(() => true, () => false))) throw new Error('VS Code refused to create the file');
    await applyAndSave(await vscode.workspace.openTextDocument(uri), req.content);
    this.recordWrite(req, turnId, real, null, false, undefined);
  }

  private recordWrite(req: WriteTextFileRequest, turnId: string, real: string, before: string | null, userEdits: boolean, diskBefore: string | null | undefined): void {
    const record = this.opts.history.record({
      sessionId: req.sessionId,
      turnId,
      path: real,
      before,
      after: req.content,
      hadUnsavedChanges: userEdits,
      ...(userEdits ? { diskBefore: diskBefore ?? null } : {}),
    });
    this.writeEmitter.fire(record);
    if (userEdits && before !== null) this.conflictEmitter.fire({ record, userText: before, diskText: diskBefore ?? null });
  }
}

function findOpenDocument(paths: readonly string[]): vscode.TextDocument | undefined {
  const fold = (p: string): string => (hostFlavor.caseInsensitive ? p.toLowerCase() : p);
  const wanted = new Set(paths.map((p) => fold(nodePath.resolve(p))));
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && wanted.has(fold(d.uri.fsPath)));
}

/** The window of an open document: the same lines, terminators included, as the disk path returns. */
function documentWindow(doc: vscode.TextDocument, w: LineWindow): string {
  if (!hasWindow(w)) return doc.getText();
  const { start, end } = windowBounds(w);
  if (end <= start || start >= doc.lineCount) return '';
  const last = doc.lineAt(doc.lineCount - 1).range.end;
  const to = end >= doc.lineCount ? last : new vscode.Position(end, 0);
  return doc.getText(new vscode.Range(new vscode.Position(start, 0), to));
}

/** Replaces only the changed middle of the document, so cursors and folds elsewhere stay put. */
async function applyAndSave(doc: vscode.TextDocument, content: string): Promise<void> {
  const next = doc.eol === vscode.EndOfLine.CRLF ? content.replace(/\r?\n/g, '\r\n') : content;
  const old = doc.getText();
  let start = 0;
  const max = Math.min(old.length, next.length);
  while (start < max && old.charCodeAt(start) === next.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && old.charCodeAt(old.length - 1 - tail) === next.charCodeAt(next.length - 1 - tail)) tail++;
  // Do not cut through a \r\n pair or a surrogate pair.
  while (start > 0 && (old.charCodeAt(start - 1) === 0x0d || isHighSurrogate(old.charCodeAt(start - 1)))) start--;
  while (tail > 0 && (old.charCodeAt(old.length - tail) === 0x0a || isLowSurrogate(old.charCodeAt(old.length - tail)))) tail--;
  if (old !== next) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(start), doc.positionAt(old.length - tail)), next.slice(start, next.length - tail));
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
  }
  // Auto save may have saved it already (the web workbench's default is "afterDelay").
  if ((await saveOurEdit(doc, doc.version)) === 'failed') throw new Error('saving failed (see the window log for the reason)');
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

async function readDisk(uri: vscode.Uri): Promise<string | null> {
  try {
    return decodeText(await vscode.workspace.fs.readFile(uri));
  } catch {
    return null;
  }
}

function isDirectory(path: string): Error {
  return invalidParams(`Is a directory, not a file: ${path}`, { reason: 'is_directory', path });
}

function mapFsError(e: unknown, path: string, fallback: 'read_failed' | 'write_failed'): Error {
  if (isBridgeError(e)) return e;
  const code = e instanceof vscode.FileSystemError ? e.code : (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'FileNotFound' || code === 'ENOENT') return resourceNotFound(`File not found: ${path}`, { reason: 'not_found', path });
  if (code === 'FileIsADirectory' || code === 'EISDIR') return isDirectory(path);
  return internalError(`Could not ${fallback === 'read_failed' ? 'read' : 'write'} ${path}: ${errorMessage(e)}`, { reason: fallback, path });
}
