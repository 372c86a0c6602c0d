import './setupDom';
import * as assert from 'node:assert/strict';
import { findCuts, IncrementalMarkdown, isSafeHref, renderMarkdown } from '../../../webview-ui/src/markdown';

function inert(html: string): void {
  const host = document.createElement('div');
  host.innerHTML = html;
  assert.equal(host.querySelectorAll('script, iframe, object, embed, style, form, input, img, svg, math').length, 0, html);
  for (const el of Array.from(host.querySelectorAll('*'))) {
    for (const a of Array.from(el.attributes)) {
      assert.ok(!/^on/i.test(a.name), `event handler attribute ${a.name} in ${html}`);
      assert.ok(a.name !== 'style', `style attribute in ${html}`);
      if (a.name === 'href' || a.name === 'src') assert.ok(isSafeHref(a.value), `unsafe ${a.name}=${a.value}`);
    }
  }
}

describe('webview markdown: sanitising agent output', () => {
  const hostile = [
    '<script>alert(1)</script> hi',
    '<img src=x onerror="alert(1)">',
    '[click](javascript:alert(1))',
    '[run](command:workbench.action.terminal.new)',
    '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![pixel](data:image/png;base64,iVBORw0KGgo=)',
    '![remote](https://evil.example/pixel.png)',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '[x](JaVaScRiPt:alert(1)) and [y]( command:foo ) and <javascript:alert(1)>',
    '<svg onload=alert(1)>',
    '```html\n<script>alert(1)</script>\n```',
    '[ref][1]\n\n[1]: javascript:alert(1)',
    '<style>body{display:none}</style>',
    '<form action="https://x"><input name=a></form>',
  ];
  for (const src of hostile) {
    it(`stays inert: ${JSON.stringify(src).slice(0, 60)}`, () => {
      const html = renderMarkdown(src);
      inert(html);
    });
  }

  it('escapes raw HTML as text (html disabled in markdown-it)', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('<script>alert(1)</script>');
    assert.equal(host.querySelector('script'), null);
    assert.match(host.textContent ?? '', /<script>alert\(1\)<\/script>/);
  });

  it('keeps https, mailto and relative links; drops dangerous ones', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('[a](https://example.com) [b](mailto:x@y.z) [c](src/app.ts#L3) [d](command:evil) [e](javascript:x)');
    const hrefs = Array.from(host.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    assert.deepEqual(hrefs, ['https://example.com', 'mailto:x@y.z', 'src/app.ts#L3']);
  });

  it('renders images as links, never as <img>', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('![diagram](https://example.com/a.png)');
    assert.equal(host.querySelector('img'), null);
    assert.equal(host.querySelector('a')?.getAttribute('href'), 'https://example.com/a.png');
  });

  it('renders code blocks with Copy / Insert / Open buttons and highlighting', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('```ts\nconst x: number = 1;\n```');
    const buttons = Array.from(host.querySelectorAll('button')).map((b) => [b.getAttribute('data-code-action'), b.getAttribute('aria-label')]);
    assert.deepEqual(buttons, [
      ['copy', 'Copy code'],
      ['insert', 'Insert code at cursor'],
      ['open', 'Open code in editor'],
    ]);
    assert.equal(host.querySelector('pre code')?.textContent, 'const x: number = 1;\n');
    assert.ok(host.querySelector('pre code .hljs-keyword'), 'highlighted');
  });
});

describe('webview markdown: incremental streaming', () => {
  it('cuts only at blank lines outside code fences', () => {
    const text = 'para one\n\n```\ncode\n\nmore code\n```\n\npara two\n\n  indented continuation\n\nlast';
    const cuts = findCuts(text, 0);
    const pieces = [0, ...cuts].map((c, i, a) => text.slice(c, a[i + 1] ?? text.length));
    assert.deepEqual(pieces, ['para one\n\n', '```\ncode\n\nmore code\n```\n\n', 'para two\n\n  indented continuation\n\n', 'last']);
  });

  it('a new chunk re-renders only the live tail, and the result matches a full render', () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} with **bold** and \`code\`.`);
    const full = paragraphs.join('\n\n') + '\n\n```js\nlet a = 1;\n```\n\nThe end.';
    const inc = new IncrementalMarkdown();
    let text = '';
    const chunks = full.match(/[\s\S]{1,7}/g)!;
    for (const c of chunks) {
      text += c;
      inc.update(text);
    }
    // Each finished block rendered once + one tail render per chunk at most: linear, not quadratic.
    assert.ok(inc.renders <= chunks.length + 70, `renders=${inc.renders}`);
    const { blocks, tail } = inc.update(full);
    const host1 = document.createElement('div');
    host1.innerHTML = blocks.map((b) => b.html).join('') + tail;
    const host2 = document.createElement('div');
    host2.innerHTML = renderMarkdown(full);
    assert.equal(host1.textContent, host2.textContent);
    assert.equal(host1.querySelectorAll('p').length, host2.querySelectorAll('p').length);
  });

  it('finished blocks keep their identity while the tail grows', () => {
    const inc = new IncrementalMarkdown();
    const a = inc.update('first\n\nsecond');
    const firstBlock = a.blocks[0];
    const b = inc.update('first\n\nsecond and more');
    assert.equal(b.blocks[0], firstBlock);
    assert.match(b.tail, /second and more/);
  });

  it('a non-append change re-renders from scratch', () => {
    const inc = new IncrementalMarkdown();
    inc.update('one\n\ntwo');
    const r = inc.update('different\n\ntext');
    const host = document.createElement('div');
    host.innerHTML = r.blocks.map((b) => b.html).join('') + r.tail;
    assert.equal(host.textContent?.replace(/\s+/g, ' ').trim(), 'different text');
  });
});
