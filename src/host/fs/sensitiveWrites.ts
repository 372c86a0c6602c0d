/**
 * The check before every fs/write_text_file: a write to a sensitive file (sensitiveFiles.ts) asks the user
 * with the path and the diff, every time, whatever auto-approval, `switchboard.fileAccess` or an earlier
 * "always allow" said. A refusal is a -32602 error the agent sees.
 */
import * as nodePath from 'node:path';
import * as nodeFs from 'node:fs';
import * as vscode from 'vscode';
import { invalidParams, toolCallFromRequest } from '../../acp';
import { hostFlavor } from './fileConfinement';
import { SensitivePatterns } from './sensitiveFiles';
import { decodeText } from './textFileWindow';

export interface SensitiveWrite {
  sessionId: string;
  /** The agent that asked to write. */
  agentName: string;
  /** The path the agent sent. */
  path: string;
  /** The path after resolving symlinks and `..`: what would really be written. */
  realPath: string;
  content: string;
}

export interface SensitiveWriteQuestion extends SensitiveWrite {
  /** The pattern that made the file sensitive (for the card's text). */
  pattern: string;
  /** The file's text now (an open buffer's, unsaved edits included); null when it does not exist. */
  before: string | null;
}

export interface SensitiveWritesOptions {
  /** Asks the user (a permission card with the diff); resolves true to allow this one write. */
  ask(question: SensitiveWriteQuestion): Promise<boolean>;
  /** Patterns added to the defaults; default: `switchboard.sensitiveFiles` from user settings only. */
  extraPatterns?(): readonly unknown[];
}

/** `switchboard.sensitiveFiles` from user (or remote machine) settings: a workspace cannot change the list. */
export function userSensitivePatterns(): readonly unknown[] {
  const value = vscode.workspace.getConfiguration('switchboard').inspect<unknown>('sensitiveFiles')?.globalValue;
  return Array.isArray(value) ? value : [];
}

export class SensitiveWrites implements vscode.Disposable {
  private readonly allowEmitter = new vscode.EventEmitter<SensitiveWrite>();
  /** The user allowed a write (fired before it is made): the change that follows is no surprise. */
  readonly onDidAllow = this.allowEmitter.event;
  private compiled: { id: string; patterns: SensitivePatterns } | undefined;

  constructor(private readonly opts: SensitiveWritesOptions) {}

  dispose(): void {
    this.allowEmitter.dispose();
  }

  /** The pattern `realPath` matches, or undefined for an ordinary file. */
  patternFor(realPath: string): string | undefined {
    return this.patterns().match(realPath);
  }

  /** Compiled again only when the user's patterns changed (this runs for every file event). */
  private patterns(): SensitivePatterns {
    const extra = (this.opts.extraPatterns ?? userSensitivePatterns)();
    const id = JSON.stringify(extra);
    if (this.compiled?.id !== id) this.compiled = { id, patterns: new SensitivePatterns(extra) };
    return this.compiled.patterns;
  }

  /**
   * The first sensitive file a permission request's tool call names (its locations and diffs), resolved as
   * far as it exists: an agent that writes files itself asks first, so such a request must not be answered
   * by a rule. Undefined when it names none.
   */
  sensitiveFileIn(toolCall: unknown): string | undefined {
    const call = toolCallFromRequest(toolCall);
    if (!call) return undefined;
    const paths = [...call.locations.map((l) => l.path), ...call.content.flatMap((c) => (c.type === 'diff' ? [c.path] : []))];
    return paths.find((p) => typeof p === 'string' && nodePath.isAbsolute(p) && (this.patternFor(nodePath.resolve(p)) ?? this.patternFor(realPathSync(p))) !== undefined);
  }

  /** Resolves when the write may go ahead; throws a BridgeError when the user did not allow it. */
  async check(write: SensitiveWrite): Promise<void> {
    // Both spellings: a symlinked `.vscode` pointing elsewhere has a real path without `.vscode` in it.
    const pattern = this.patternFor(nodePath.resolve(write.path)) ?? this.patternFor(write.realPath);
    if (pattern === undefined) return;
    const before = await currentText(write.realPath);
    // A throwing ask counts as "no": never allow by accident.
    const allowed = await this.opts.ask({ ...write, pattern, before }).then((v) => v === true, () => false);
    if (allowed) {
      this.allowEmitter.fire(write);
      return;
    }
    throw invalidParams(`The user did not allow this write to a sensitive file (${pattern}): ${write.realPath}`, {
      reason: 'access_denied',
      path: write.realPath,
      op: 'write',
      why: 'sensitive_file',
    });
  }
}

async function currentText(realPath: string): Promise<string | null> {
  const fold = (p: string): string => (hostFlavor.caseInsensitive ? p.toLowerCase() : p);
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && fold(d.uri.fsPath) === fold(realPath));
  if (doc) return doc.getText();
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(realPath));
  } catch {
    return null;
  }
  try {
    return decodeText(bytes, realPath);
  } catch {
    return `(${bytes.byteLength} bytes that are not text)`;
  }
}

/** The real path of `p`'s longest existing prefix, with the rest appended (`..` resolved first). */
function realPathSync(p: string): string {
  const abs = nodePath.resolve(p);
  try {
    return nodeFs.realpathSync.native(abs);
  } catch {
    const parent = nodePath.dirname(abs);
    return parent === abs ? abs : nodePath.join(realPathSync(parent), nodePath.basename(abs));
  }
}
