// "Switchboard: Add to Chat" from every place context lives: the editor (its selection, else the whole
// file), the editor title, the Explorer (files and folders, several at once), the terminal (its selection),
// Source Control (a file's change as a diff) and the `Ask <agent> to fix` quick fix, which the Problems view's
// context menu also lists (VS Code 1.100 gives extensions no Problems view menu of their own).
// Each becomes a chip in the active session's composer; nothing is sent until the user sends. What could
// not be added is said once, in the chat, beside the composer.
import * as vscode from 'vscode';
import type { MentionRef } from '../../shared/chatState';
import { outsideRefusal } from './access';
import { captureProblem, problemRef, type ProblemRef } from './diagnostics';
import type { ComposerTarget } from './register';
import { checkResource, editorMentions, resourceMention } from './mentions';
import { captureChange } from './scmChange';
import { captureTerminalSelection } from './terminalSelection';

interface Gathered {
  mentions: MentionRef[];
  refusals: string[];
}

/** Runs the command: the chips and the notice go to the composer; a failure is said there too. */
export async function addToChat(target: ComposerTarget, log: vscode.LogOutputChannel, args: readonly unknown[]): Promise<void> {
  try {
    const { mentions, refusals } = await gatherFor(target, args);
    await target.present(mentions, refusals.length ? refusals.join(' ') : undefined);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`Add to Chat: ${message}`);
    await target.present([], `Nothing was added to the chat: ${message}`);
  }
}

/** What the command was given decides what is added (see the menus in package.json). */
async function gatherFor(target: ComposerTarget, args: readonly unknown[]): Promise<Gathered> {
  const [first, second] = args;
  // The quick fix passes the document and its diagnostic.
  if (first instanceof vscode.Uri && second instanceof vscode.Diagnostic) return problems([problemRef(first, second)]);
  if (first instanceof vscode.Uri) {
    // The Explorer passes the clicked item and every selected one; the editor's menus pass its file.
    const uris = Array.isArray(second) && second.every((u) => u instanceof vscode.Uri) ? (second as vscode.Uri[]) : [first];
    const editor = vscode.window.activeTextEditor;
    const fromEditorContext = second === undefined && editor?.document.uri.toString() === first.toString();
    if (fromEditorContext) return fromEditor(target, editor);
    return resources(target, uris);
  }
  // Source Control passes every selected resource, each as an argument.
  const scm = args.flat().filter(isScmResource);
  if (scm.length > 0) return changes([...new Map(scm.map((s) => [s.resourceUri.toString(), s.resourceUri])).values()]);
  if (isTerminalRequest(first)) {
    const terminal = vscode.window.terminals.includes(first as vscode.Terminal) ? (first as vscode.Terminal) : vscode.window.activeTerminal;
    if (terminal) return fromTerminal(terminal);
    return { mentions: [], refusals: ['Nothing was added: no terminal is open.'] };
  }
  const editor = vscode.window.activeTextEditor;
  if (editor) return fromEditor(target, editor);
  return { mentions: [], refusals: ['Nothing was added: open a file (or select its lines), or pick files in the Explorer, then Add to Chat.'] };
}

async function fromEditor(target: ComposerTarget, editor: vscode.TextEditor): Promise<Gathered> {
  const refusal = await outsideRefusal(editor.document.uri, target.folders(), target.fileAccess());
  if (refusal) return { mentions: [], refusals: [refusal] };
  return { mentions: editorMentions(editor), refusals: [] };
}

async function resources(target: ComposerTarget, uris: readonly vscode.Uri[]): Promise<Gathered> {
  const out: Gathered = { mentions: [], refusals: [] };
  for (const uri of uris) {
    const outside = await outsideRefusal(uri, target.folders(), target.fileAccess());
    if (outside) {
      out.refusals.push(outside);
      continue;
    }
    const check = await checkResource(uri);
    if (check.kind === 'refused') out.refusals.push(check.why);
    else out.mentions.push(resourceMention(uri, check.kind));
  }
  return out;
}

async function changes(uris: readonly vscode.Uri[]): Promise<Gathered> {
  const out: Gathered = { mentions: [], refusals: [] };
  for (const uri of uris) {
    const captured = await captureChange(uri);
    if ('mention' in captured) out.mentions.push(captured.mention);
    else out.refusals.push(captured.refused);
  }
  return out;
}

async function problems(refs: readonly ProblemRef[]): Promise<Gathered> {
  const out: Gathered = { mentions: [], refusals: [] };
  for (const ref of refs) {
    const captured = await captureProblem(ref);
    if ('mention' in captured) out.mentions.push(captured.mention);
    else out.refusals.push(captured.refused);
  }
  return out;
}

async function fromTerminal(terminal: vscode.Terminal): Promise<Gathered> {
  const captured = await captureTerminalSelection(terminal);
  return 'mention' in captured ? { mentions: [captured.mention], refusals: [] } : { mentions: [], refusals: [captured.refused] };
}

/** The terminal menu passes its terminal; the terminal's keybinding passes `{ from: 'terminal' }`. */
function isTerminalRequest(value: unknown): boolean {
  if (vscode.window.terminals.includes(value as vscode.Terminal)) return true;
  return typeof value === 'object' && value !== null && (value as { from?: unknown }).from === 'terminal';
}

function isScmResource(value: unknown): value is vscode.SourceControlResourceState {
  return typeof value === 'object' && value !== null && (value as { resourceUri?: unknown }).resourceUri instanceof vscode.Uri;
}
