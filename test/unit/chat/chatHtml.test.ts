import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { contentSecurityPolicy, makeNonce, renderChatHtml } from '../../../src/chat/surfaces/chatHtml';

const opts = (nonce: string) => ({
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce,
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
  codiconsUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css',
});

describe('chat HTML template', () => {
  const nonce = makeNonce((n) => randomBytes(n));
  const html = renderChatHtml(opts(nonce));

  it('makes unguessable alphanumeric nonces', () => {
    assert.match(nonce, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(makeNonce((n) => randomBytes(n)), nonce);
  });

  it('has a strict CSP meta with the nonce, no unsafe-inline / unsafe-eval', () => {
    const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    assert.ok(m, 'CSP meta present');
    const csp = m[1].replace(/&#39;|&apos;/g, "'");
    const directives = new Map(csp.split(';').map((d) => { const [k, ...v] = d.trim().split(/\s+/); return [k, v] as const; }));
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), [`'nonce-${nonce}'`]);
    assert.deepEqual(directives.get('style-src'), ['https://file+.vscode-resource.vscode-cdn.net']);
    assert.deepEqual(directives.get('font-src'), ['https://file+.vscode-resource.vscode-cdn.net']);
    assert.deepEqual(directives.get('img-src'), ['https://file+.vscode-resource.vscode-cdn.net', 'data:']);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('loads one external script by nonce and has no inline script or handlers', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0][1], new RegExp(`nonce="${nonce}"`));
    assert.match(scripts[0][1], /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\.js"/);
    assert.equal(scripts[0][2].trim(), '', 'no inline script body');
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handlers');
    assert.doesNotMatch(html, /<style/i, 'no inline style element');
    assert.doesNotMatch(html, /javascript:/i);
  });

  it('links the codicons and the webview stylesheet', () => {
    assert.match(html, /<link rel="stylesheet" href="[^"]*codicons\/codicon\.css">/);
    assert.match(html, /<link rel="stylesheet" href="[^"]*dist\/webview\.css">/);
    assert.match(html, /<div id="root"/);
  });

  it('rejects a weak nonce and escapes attribute values', () => {
    assert.throws(() => renderChatHtml(opts('short')));
    const evil = renderChatHtml({ ...opts(nonce), scriptUri: 'x"><script>alert(1)</script>' });
    assert.equal([...evil.matchAll(/<script/g)].length, 1);
    assert.match(contentSecurityPolicy('vscode-resource:', 'abc'), /script-src 'nonce-abc'/);
  });
});
