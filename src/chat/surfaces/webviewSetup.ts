// What every webview showing the chat gets: scripts on, command links off, only the extension's dist and
// media folders readable, and the chat's HTML with a fresh nonce.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { makeNonce, renderChatHtml } from './chatHtml';

export function setUpChatWebview(webview: vscode.Webview, extensionUri: vscode.Uri): void {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media] };
  webview.html = renderChatHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce((n) => randomBytes(n)),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString(),
    codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
  });
}
