// Where the user answers a wait: the chat in the side bar and, when open, in an editor tab. Either one on
// screen counts as the chat being shown; "Show" brings the editor tab forward when it is open, else the view.
import * as vscode from 'vscode';
import type { ChatEditorPanel } from '../../chat/chatPanel';
import type { ChatViewProvider } from '../../chat/chatViewProvider';
import type { AttentionSurface } from './attention';

export function chatSurface(view: ChatViewProvider, panel: ChatEditorPanel, selectSession: (sessionId: string) => void): AttentionSurface & vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const subscriptions = [view.onDidChangeVisibility(() => changed.fire()), panel.onDidChangeVisibility(() => changed.fire()), changed];
  return {
    get isVisible() {
      return view.isVisible || panel.isVisible;
    },
    onDidChangeVisibility: changed.event,
    setBadge: (badge) => view.setBadge(badge),
    async reveal(sessionId, requestId) {
      if (sessionId !== undefined) selectSession(sessionId);
      const message = requestId !== undefined && sessionId !== undefined ? { type: 'revealRequest' as const, sessionId, requestId } : undefined;
      if (panel.isOpen) {
        panel.open();
        if (message) panel.post(message);
        return;
      }
      await view.reveal();
      if (message) view.controller.post(message);
    },
    dispose: () => {
      for (const s of subscriptions) s.dispose();
    },
  };
}
