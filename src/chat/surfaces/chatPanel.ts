// "Open Chat in Editor": the chat in an editor tab. The tab is one more client of the side bar's controller,
// so it shows the same sessions, transcripts and queues: a session is never open twice with two states.
import * as vscode from 'vscode';
import type { ChatClient } from '../chatClient';
import type { ChatController } from '../chatController';
import { setUpChatWebview } from './webviewSetup';

export class ChatEditorPanel implements vscode.Disposable {
  static readonly viewType = 'switchboard.chatEditor';

  private panel: vscode.WebviewPanel | undefined;
  private client: ChatClient | undefined;
  private readonly visibilityEmitter = new vscode.EventEmitter<void>();
  /** The tab was shown, hidden or closed. */
  readonly onDidChangeVisibility = this.visibilityEmitter.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
  ) {}

  /** The tab is open and the one shown in its group. */
  get isVisible(): boolean {
    return this.panel?.visible ?? false;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Opens the tab (or brings it to the front) and focuses its composer. */
  open(): void {
    if (this.panel) {
      this.panel.reveal();
      this.client?.post({ type: 'focusComposer' });
      return;
    }
    const panel = (this.panel = vscode.window.createWebviewPanel(ChatEditorPanel.viewType, 'Switchboard Chat', vscode.ViewColumn.Active, {
      enableFindWidget: false,
    }));
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'switchboard.svg');
    const client = (this.client = this.controller.connect());
    const subscriptions = [
      panel.webview.onDidReceiveMessage((m: unknown) => this.controller.handleMessage(m, client)),
      panel.onDidChangeViewState(() => {
        client.setVisible(panel.visible);
        this.visibilityEmitter.fire();
      }),
    ];
    panel.onDidDispose(() => {
      for (const s of subscriptions) s.dispose();
      this.controller.disconnect(client);
      if (this.panel === panel) {
        this.panel = undefined;
        this.client = undefined;
      }
      this.visibilityEmitter.fire();
    });
    client.attach({ postMessage: (m) => panel.webview.postMessage(m) });
    setUpChatWebview(panel.webview, this.extensionUri);
    client.post({ type: 'focusComposer' });
    this.visibilityEmitter.fire();
  }

  /** Posts to the tab's webview (kept until it is ready). */
  post(message: Parameters<ChatClient['post']>[0]): void {
    this.client?.post(message);
  }

  dispose(): void {
    this.panel?.dispose();
    this.visibilityEmitter.dispose();
  }
}
