// Opens the chat's chips that carry lines, a kind or text of their own. The read-only documents for chip
// text are served from activation of the services on; the opening itself (openMention.ts) loads the first
// time a chip is opened.
import * as vscode from 'vscode';
import { MENTION_SCHEME, MentionDocuments } from './mentionDocuments';
import type { OpenRequest } from './openMention';

const loadOpenMention = () => import('./openMention');

export class MentionOpener implements vscode.Disposable {
  private readonly documents = new MentionDocuments();
  private readonly provider = vscode.workspace.registerTextDocumentContentProvider(MENTION_SCHEME, this.documents);

  async open(request: OpenRequest): Promise<void> {
    const { openMention } = await loadOpenMention();
    await openMention(request, this.documents);
  }

  dispose(): void {
    this.provider.dispose();
  }
}
