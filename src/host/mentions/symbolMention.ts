// `@Symbols`: the workspace symbol provider as the user types; a symbol is looked up again when the message
// is sent, so the agent gets its current text, or the user hears that it is gone.
import * as vscode from 'vscode';
import type { MentionCandidate, MentionRef } from '../../shared/chatState';
import { lines, mimeFor, readText, withLines, type MentionContent } from './mentionContent';
import { MentionError } from './mentionError';

const MAX_SYMBOLS = 30;

async function workspaceSymbols(query: string): Promise<vscode.SymbolInformation[]> {
  const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
  return Array.isArray(found) ? found : [];
}

export async function symbolCandidates(query: string): Promise<MentionCandidate[]> {
  if (!query) return [];
  const symbols = await workspaceSymbols(query).catch(() => []);
  return symbols.slice(0, MAX_SYMBOLS).map((s) => ({
    kind: 'symbol' as const,
    uri: s.location.uri.toString(),
    label: s.name,
    range: { startLine: s.location.range.start.line + 1, endLine: s.location.range.end.line + 1 },
    detail: `${vscode.SymbolKind[s.kind] ?? 'Symbol'} in ${vscode.workspace.asRelativePath(s.location.uri, false)}`,
  }));
}

/** The symbol's text where it is now; a MentionError when no symbol of that name is in its file any more. */
export async function symbolContent(mention: MentionRef, embed: boolean): Promise<MentionContent> {
  const uri = vscode.Uri.parse(mention.uri);
  const now = (await workspaceSymbols(mention.label).catch(() => [])).filter((s) => s.name === mention.label && s.location.uri.toString() === mention.uri);
  if (!now.length) {
    throw new MentionError(
      `Not sent: the symbol @${mention.label} is no longer in ${vscode.workspace.asRelativePath(uri, false)}.`,
      'Nothing was sent. It was renamed, moved or deleted since you picked it: mention it again, or remove the mention.',
    );
  }
  const old = mention.range?.startLine ?? 0;
  const best = now.reduce((a, b) => (Math.abs(b.location.range.start.line + 1 - old) < Math.abs(a.location.range.start.line + 1 - old) ? b : a));
  const range = { startLine: best.location.range.start.line + 1, endLine: best.location.range.end.line + 1 };
  const link = withLines(mention.uri, range);
  if (!embed) return { uri: link, name: mention.label, mimeType: mimeFor(uri), linkable: true };
  return { uri: link, name: mention.label, mimeType: mimeFor(uri), text: lines(await readText(uri, mention.label), range), linkable: true };
}
