// Where the chat shows: the side bar view and, once opened, an editor tab ("Open Chat in Editor"). Either one
// on screen counts as the chat being shown; revealing a session brings the editor tab forward when it is
// open, else the view.
import * as vscode from 'vscode';
import { ChatEditorPanel } from './chatPanel';
import type { ChatViewProvider } from './chatViewProvider';

export class ChatSurfaces implements vscode.Disposable {
  private panel: ChatEditorPanel | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  /** The view or the tab was shown, hidden or closed. */
  readonly onDidChangeVisibility = this.changed.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly view: ChatViewProvider,
    private readonly selectSession: (sessionId: string) => void,
  ) {
    this.subscriptions = [view.onDidChangeVisibility(() => this.changed.fire()), this.changed];
  }

  get isVisible(): boolean {
    return this.view.isVisible || (this.panel?.isVisible ?? false);
  }

  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.view.setBadge(badge);
  }

  /** Opens the chat in an editor tab (or brings the tab forward). */
  openInEditor(): void {
    if (!this.panel) {
      this.panel = new ChatEditorPanel(this.extensionUri, this.view.controller);
      this.subscriptions.push(this.panel, this.panel.onDidChangeVisibility(() => this.changed.fire()));
    }
    this.panel.open();
  }

  /** Shows the chat with this session as its tab, and the permission request when given. */
  async reveal(sessionId: string | undefined, requestId?: string): Promise<void> {
    if (sessionId !== undefined) this.selectSession(sessionId);
    const message = requestId !== undefined && sessionId !== undefined ? { type: 'revealRequest' as const, sessionId, requestId } : undefined;
    if (this.panel?.isOpen) {
      this.panel.open();
      if (message) this.panel.post(message);
      return;
    }
    await this.view.reveal();
    if (message) this.view.controller.post(message);
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}
