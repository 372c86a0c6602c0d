// The `switchboard.chat` webview view: a thin VS Code adapter around ChatController.
import * as vscode from 'vscode';
import type { MentionRef } from '../shared/chatState';
import type { ChatBackend, HostActions } from './chatBackend';
import { ChatController } from './chatController';
import { createHostUi } from './hostUi';
import { setUpChatWebview } from './webviewSetup';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'switchboard.chat';

  readonly controller: ChatController;
  private view: vscode.WebviewView | undefined;
  private viewSubscriptions: vscode.Disposable[] = [];
  private badge: vscode.ViewBadge | undefined;
  private readonly visibilityEmitter = new vscode.EventEmitter<void>();
  /** The view was shown, hidden or closed. */
  readonly onDidChangeVisibility = this.visibilityEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    backend: ChatBackend,
    actions: HostActions,
    log: vscode.LogOutputChannel,
  ) {
    this.controller = new ChatController(backend, createHostUi(log), actions);
  }

  resolveWebviewView(view: vscode.WebviewView, _context: vscode.WebviewViewResolveContext, _token: vscode.CancellationToken): void {
    this.disposeView();
    this.view = view;
    if (this.badge) view.badge = this.badge;
    const webview = view.webview;
    this.viewSubscriptions.push(
      webview.onDidReceiveMessage((m: unknown) => this.controller.handleMessage(m)),
      view.onDidChangeVisibility(() => {
        this.controller.setVisible(view.visible);
        this.visibilityEmitter.fire();
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.controller.detach();
          this.view = undefined;
          this.disposeSubscriptions();
          this.visibilityEmitter.fire();
        }
      }),
    );
    this.controller.attach({ postMessage: (m) => webview.postMessage(m) });
    setUpChatWebview(webview, this.extensionUri);
    this.visibilityEmitter.fire();
  }

  /** The view's badge (sessions waiting for the user); kept for a view resolved later. */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    // VS Code 1.100 keeps a webview view's badge set back to undefined on the activity bar; a zero shows none.
    if (this.view) this.view.badge = badge ?? { value: 0, tooltip: '' };
  }

  /** The chat is on screen: permission prompts go to its inline cards instead of notifications. */
  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  /** Shows the chat view (and focuses the composer). */
  async reveal(insert?: string): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
    this.controller.focusComposer(insert);
  }

  /** Shows the chat and adds chips to its composer (Add to Chat), after what changed so far: a session just opened. */
  async addToComposer(mentions: MentionRef[], notice?: string): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
    this.controller.flush();
    this.controller.post({ type: 'focusComposer', mentions, ...(notice ? { notice } : {}) });
  }

  private disposeSubscriptions(): void {
    for (const d of this.viewSubscriptions.splice(0)) d.dispose();
  }

  private disposeView(): void {
    this.disposeSubscriptions();
    this.view = undefined;
  }

  dispose(): void {
    this.disposeView();
    this.controller.dispose();
    this.visibilityEmitter.dispose();
  }
}
