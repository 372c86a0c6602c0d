// The chat webview's HTML. Pure (no `vscode` import) so it is unit-tested in plain Node.
// Strict CSP: scripts only by nonce (one external file, no inline script, no eval), styles and fonts only
// from the extension's own resources, images from the extension or data: (tool-call images), nothing else.

export interface ChatHtmlOptions {
  /** `webview.cspSource`. */
  cspSource: string;
  /** Random per render. */
  nonce: string;
  /** `webview.asWebviewUri(dist/webview.js)` as a string. */
  scriptUri: string;
  /** `webview.asWebviewUri(dist/webview.css)` as a string. */
  styleUri: string;
  /** `webview.asWebviewUri(dist/codicons/codicon.css)` as a string. */
  codiconsUri: string;
}

/** 128 bits of randomness as base64url-ish alphanumerics (CSP nonces must not be guessable). */
export function makeNonce(randomBytes: (n: number) => Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(32);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

function attr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderChatHtml(o: ChatHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(o.nonce)) throw new Error('invalid CSP nonce');
  const csp = contentSecurityPolicy(o.cspSource, o.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.codiconsUri)}">
<link rel="stylesheet" href="${attr(o.styleUri)}">
<title>Switchboard Chat</title>
</head>
<body>
<div id="root" class="sb-root"></div>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}
