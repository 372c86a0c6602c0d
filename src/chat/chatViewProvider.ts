// The `switchboard.chat` webview view: a thin VS Code adapter around ChatController.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { MentionRef } from '../shared/chatState';
import type { ChatBackend } from './chatBackend';
import type { HostUi } from './chatBackend';
import { ChatController } from './chatController';
import { makeNonce, renderChatHtml } from './chatHtml';
import { createHostUi } from './hostUi';

export interface ChatViewProviderOptions {
  log?: vscode.LogOutputChannel;
  /** Override the editor/environment actions (tests). */
  ui?: HostUi;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'switchboard.chat';

  readonly controller: ChatController;
  private view: vscode.WebviewView | undefined;
  private viewSubscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    backend: ChatBackend,
    options: ChatViewProviderOptions = {},
  ) {
    this.controller = new ChatController(backend, options.ui ?? createHostUi(options.log));
  }

  resolveWebviewView(view: vscode.WebviewView, _context: vscode.WebviewViewResolveContext, _token: vscode.CancellationToken): void {
    this.disposeView();
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const webview = view.webview;
    webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media] };
    this.viewSubscriptions.push(
      webview.onDidReceiveMessage((m: unknown) => this.controller.handleMessage(m)),
      view.onDidChangeVisibility(() => this.controller.setVisible(view.visible)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.controller.detach();
          this.view = undefined;
          this.disposeSubscriptions();
        }
      }),
    );
    this.controller.attach({ postMessage: (m) => webview.postMessage(m) });
    webview.html = renderChatHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
      codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
    });
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
  }
}
