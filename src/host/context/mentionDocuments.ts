// Read-only editors for text a chip carries (a terminal's output, an earlier session, problems, a diff
// without Git): a virtual document per text, served from memory, the last few kept.
import * as vscode from 'vscode';

export const MENTION_SCHEME = 'switchboard-mention';
/** Texts kept for reopening (a closed editor's document is asked for again when reopened). */
const KEPT = 20;

export class MentionDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? 'This text is no longer kept: open the chip again.';
  }

  /** Shows `text` under `name`; the extension (`.md`, `.diff`, `.txt`) gives the editor its language. */
  async show(name: string, text: string, extension: string): Promise<void> {
    const file = `/${++this.next}/${name.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 100) || 'mention'}${extension}`;
    this.texts.set(file, text);
    for (const old of this.texts.keys()) if (this.texts.size > KEPT) this.texts.delete(old);
    await vscode.window.showTextDocument(vscode.Uri.from({ scheme: MENTION_SCHEME, path: file }), { preview: true });
  }
}
