import './setupDom';
import * as assert from 'node:assert/strict';
import { IncrementalMarkdown, type MarkdownBlock, type MarkdownView } from '../../../webview-ui/src/markdown';
import { isSafeHref } from '../../../webview-ui/src/markdownRender';
import { CODE_PIECE, findCuts } from '../../../webview-ui/src/markdownBlocks';
import { TextStreams } from '../../../webview-ui/src/textStreams';
import { BlockPages, PAGE_SIZE, RUN_PIECES, type Run } from '../../../webview-ui/src/blockPages';
import { frameMarkup, markdownDeadline, setMarkdownBudget } from '../../../webview-ui/src/renderBudget';
import { render } from 'preact';
import { Markdown } from '../../../webview-ui/src/components/Markdown';
import { htmlOf, renderMarkdown, streamInto, viewHtml } from './markdownViews';

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

  it('decodes character references as the shipped bundle does (entities 8 behind markdown-it 14)', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('&copy; &amp; &#x41;&#66; &ne; &notanentity; &lt;b&gt; [l](https://x.example/?a=1&amp;b=2) `&amp;`');
    assert.equal(host.textContent?.trim(), '© & AB ≠ &notanentity; <b> l &amp;');
    assert.equal(host.querySelector('b'), null);
    assert.equal(host.querySelector('a')?.getAttribute('href'), 'https://x.example/?a=1&b=2');
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
    const host1 = viewHtml(inc.update(full));
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
    assert.match(htmlOf(b.tail!), /second and more/);
  });

  it('a non-append change re-renders from scratch', () => {
    const inc = new IncrementalMarkdown();
    inc.update('one\n\ntwo');
    const r = inc.update('different\n\ntext');
    const host = viewHtml(r);
    assert.equal(host.textContent?.replace(/\s+/g, ' ').trim(), 'different text');
  });

  it('cuts before a fence or a heading that follows text without a blank line', () => {
    const text = 'intro line\n```js\nlet a;\n```\nafter\n# Title\nbody';
    const cuts = findCuts(text, 0);
    const pieces = [0, ...cuts].map((c, i, a) => text.slice(c, a[i + 1] ?? text.length));
    assert.deepEqual(pieces, ['intro line\n', '```js\nlet a;\n```\n', 'after\n', '# Title\nbody']);
    // An incomplete line is never a cut: "```" may still grow into inline code.
    assert.deepEqual(findCuts('text\n```', 0), []);
  });
});

describe('webview markdown: streamed in chunks, rendered as if whole', () => {
  const PARTS = [
    'A paragraph with **bold**, `code` and [a link](https://example.com).',
    '',
    '',
    '## A heading',
    '- item one',
    '- item two',
    '  continued item',
    '1. first',
    '2. second',
    '> a quote',
    '```js',
    'const x = 1;',
    '',
    '```',
    '~~~',
    'tilde code',
    '~~~',
    'text right after',
    '    indented code',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '---',
  ];
  let seed = 11;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const longFence = () => '```ts\n' + Array.from({ length: 700 }, (_, i) => `export const v${i} = "${'x'.repeat(i % 40)}";`).join('\n') + '\n```';
  const docs = (count: number) =>
    Array.from({ length: count }, (_, d) =>
      Array.from({ length: 3 + rand(40) }, () => (rand(25) === 0 && d % 3 === 0 ? longFence() : PARTS[rand(PARTS.length)])).join('\n'),
    );
  // Small blocks that arrive together share one markdown-it render, so the markup may differ where a
  // blank line separates list items (one loose list or two lists); the text and every code block may not.
  const shape = (v: MarkdownView) => {
    const host = viewHtml(v);
    const codes = Array.from(host.querySelectorAll('pre code')).map((c) => c.textContent);
    return { text: host.textContent!.replace(/\s+/g, ' ').trim(), codes, headings: host.querySelectorAll('h2').length };
  };

  it('any chunking of a document gives the view of the whole document (through update and through append)', () => {
    for (const [n, doc] of docs(120).entries()) {
      const whole = new IncrementalMarkdown().update(doc);
      const viaUpdate = new IncrementalMarkdown();
      const viaAppend = new IncrementalMarkdown();
      let text = '';
      let a = viaAppend.update('');
      let u = viaUpdate.update('');
      for (let at = 0; at < doc.length; ) {
        const size = rand(5) === 0 ? 1 + rand(2000) : 1 + rand(40);
        const chunk = doc.slice(at, at + size);
        at += size;
        text += chunk;
        u = viaUpdate.update(text);
        a = viaAppend.append([chunk.slice(0, 3), chunk.slice(3)], text);
      }
      assert.deepEqual(shape(u), shape(whole), `doc ${n} via update: ${JSON.stringify(doc.slice(0, 200))}`);
      assert.deepEqual(shape(a), shape(whole), `doc ${n} via append`);
    }
  });

  it('a 250 KB code block streamed by append holds a bounded amount of its text, and shows all of it', () => {
    const inc = new IncrementalMarkdown();
    let text = 'Here is the file:\n\n```ts\n';
    inc.append([text], text);
    let held = 0;
    let key: number | undefined;
    for (let i = 0; i < 5000; i++) {
      const line = `export const value${i} = compute(${i}, "a string of some length ${i}");\n`;
      text += line;
      const v = inc.append([line], text);
      if (i > 1000) held = Math.max(held, inc.heldChars);
      key ??= v.tail?.key;
      assert.equal(v.tail?.key, key, 'one key while streaming');
    }
    assert.ok(text.length > 250_000);
    assert.ok(held < 2 * CODE_PIECE, `held ${held} characters of ${text.length}`);
    const closed = inc.append(['```\n'], text + '```\n');
    assert.equal(closed.tail?.key, key, 'closed and long: the same pieces and key');
    const done = inc.append(['\nEnd of code.'], text + '```\n\nEnd of code.');
    const code = done.blocks.find((b) => b.kind === 'code') as Extract<MarkdownBlock, { kind: 'code' }>;
    assert.equal(code.key, key);
    assert.equal(code.pieces.join(''), text.slice(text.indexOf('```ts\n') + 6));
    assert.match(htmlOf(done.tail!), /End of code\./);
  });

  it('append with chunks that do not add up to the text starts over from the text', () => {
    const inc = new IncrementalMarkdown();
    inc.append(['one\n\n'], 'one\n\n');
    const v = inc.append(['two'], 'one\n\nthree');
    assert.equal(viewHtml(v).textContent?.replace(/\s+/g, ' ').trim(), 'one three');
  });
});

describe('webview markdown: the text the host appended to streamed blocks', () => {
  it('gives each block its appended chunks once, bounds a block nobody reads, and voids all on reset', () => {
    const streams = new TextStreams();
    streams.append('s\ni1\n0', 'b');
    streams.append('s\ni1\n0', 'c');
    streams.append('s\ni2\n0', 'x');
    assert.deepEqual(streams.take('s\ni1\n0'), { chunks: ['b', 'c'], length: 2 });
    assert.equal(streams.take('s\ni1\n0'), undefined, 'read once');
    for (let i = 0; i < 300; i++) streams.append('s\ni3\n0', 'y'.repeat(1024));
    assert.equal(streams.take('s\ni3\n0'), undefined, 'a log past its bound is dropped: the block is read whole');
    const epoch = streams.epoch;
    streams.reset();
    assert.equal(streams.take('s\ni2\n0'), undefined);
    assert.equal(streams.epoch, epoch + 1);
  });
});

describe('webview markdown: the frame budget window', () => {
  afterEach(() => setMarkdownBudget(Infinity));

  it('lasts until the next animation frame, however long the task that renders runs', async () => {
    setMarkdownBudget(8);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const deadline = markdownDeadline();
    frameMarkup.spend(100);
    // One long task (the store's render, then each message's own): 30 ms later it is still the same frame.
    const busyUntil = performance.now() + 30;
    while (performance.now() < busyUntil) {
      // busy: no frame can start
    }
    assert.equal(markdownDeadline(), deadline, 'the same window');
    assert.equal(frameMarkup.started(), true);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    assert.ok(markdownDeadline() > deadline, 'a new window in the next frame');
    assert.equal(frameMarkup.started(), false);
  });
});

describe('webview markdown: messages waiting for a frame', () => {
  afterEach(() => setMarkdownBudget(Infinity));

  it('all of them are rendered again from one animation-frame callback a frame, until each is complete', async () => {
    setMarkdownBudget(0); // one block a frame, so every message but one waits
    const texts = Array.from({ length: 10 }, (_, i) => Array.from({ length: 3 }, (_, j) => `Paragraph ${i}.${j} of message ${i}.`).join('\n\n'));
    const g = globalThis as { requestAnimationFrame: typeof requestAnimationFrame };
    const realFrame = g.requestAnimationFrame;
    const nextFrame = () => new Promise((resolve) => realFrame(resolve));
    let requests = 0;
    g.requestAnimationFrame = (callback) => {
      requests++;
      return realFrame(callback);
    };
    const root = document.createElement('div');
    document.body.appendChild(root);
    try {
      await nextFrame();
      render(<div>{texts.map((text, i) => <Markdown key={i} text={text} />)}</div>, root);
      const complete = () => texts.every((t) => t.split('\n\n').every((p) => root.textContent!.includes(p)));
      requests = 0;
      let frames = 0;
      while (!complete() && frames < 200) {
        await nextFrame();
        frames++;
      }
      assert.ok(complete(), `complete after ${frames} frames`);
      assert.ok(frames >= 10, `spread over frames: ${frames}`);
      // Per frame: the budget window's end and one callback for all waiting messages (one each: ~6 a frame here).
      assert.ok(requests <= 2 * frames + 2, `${requests} animation frames requested in ${frames} frames`);
    } finally {
      g.requestAnimationFrame = realFrame;
      render(null, root);
      root.remove();
    }
  });
});

describe('webview markdown: blocks in pages', () => {
  const html = (key: number, inline = false, startsParagraph = false): MarkdownBlock => ({ kind: 'html', key, html: `<p>${key}</p>`, inline, startsParagraph });
  const keysOf = (pages: { items: readonly (MarkdownBlock | Run)[] }[]) => pages.flatMap((p) => p.items.map((i) => (i.kind === 'run' ? `run${i.key}:${i.pieces.length}` : String(i.key))));

  it('a page that no longer holds the last item keeps its identity; an item never changes page; the tail sits where its block will', () => {
    const layout = new BlockPages();
    const blocks: MarkdownBlock[] = [];
    const pageOf = new Map<string, number>();
    let before: ReturnType<BlockPages['pages']> = [];
    for (let k = 0; k < PAGE_SIZE * 3 + 5; k++) {
      const tail = html(k);
      const withTail = layout.pages(blocks, tail);
      const tailPage = withTail.find((p) => p.items.includes(tail))!;
      blocks.push(tail);
      const pages = layout.pages(blocks, undefined);
      assert.equal(pages.find((p) => p.items.includes(tail))?.key, tailPage.key, `block ${k} is in the page its tail was in`);
      for (const p of pages) {
        assert.ok(p.items.length <= PAGE_SIZE);
        for (const i of p.items) {
          const key = String(i.key);
          if (pageOf.has(key)) assert.equal(pageOf.get(key), p.key, `item ${key} stays in its page`);
          pageOf.set(key, p.key);
        }
      }
      for (const p of before.slice(0, -1)) assert.equal(pages[p.key], p, `page ${p.key} is final and kept as it was`);
      before = pages;
    }
    assert.equal(before.length, 4);
  });

  it('is the same layout as placing every block at once, runs included, and starts over when the blocks are replaced', () => {
    const layout = new BlockPages();
    const blocks: MarkdownBlock[] = [];
    for (let k = 0; k < 200; k++) {
      blocks.push(k % 37 === 0 ? html(k) : html(k, true, k % 11 === 0));
      layout.pages(blocks.slice(), k % 3 ? html(1000 + k, true) : undefined);
    }
    const whole = new BlockPages().pages(blocks, undefined);
    assert.deepEqual(keysOf(layout.pages(blocks, undefined)), keysOf(whole));
    assert.ok(keysOf(whole).every((k) => !k.startsWith('run') || Number(k.split(':')[1]) <= RUN_PIECES));
    const replaced = [html(5000), html(5001)];
    assert.deepEqual(keysOf(layout.pages(replaced, undefined)), ['5000', '5001']);
  });
});

describe('webview markdown: a long paragraph lays out in runs', () => {
  it('pieces of one paragraph go into runs of RUN_PIECES; the next long paragraph starts a run of its own', () => {
    const paragraph = (word: string) => Array.from({ length: 2500 }, (_, i) => `${word} ${i} `).join('');
    const text = `${paragraph('alpha')}\n\n${paragraph('beta')}`;
    const { view } = streamInto(new IncrementalMarkdown(), text.match(/[\s\S]{1,10}/g)!);
    const items = new BlockPages().pages(view.blocks, view.tail).flatMap((p) => p.items);
    const runs = items.filter((i): i is Run => i.kind === 'run');
    assert.equal(runs.length, items.length, 'every piece is in a run');
    assert.ok(runs.every((r) => r.pieces.length <= RUN_PIECES));
    const words = (r: Run) => new Set(r.pieces.map((p) => /alpha|beta/.exec(htmlOf(p))?.[0]));
    assert.ok(runs.every((r) => words(r).size === 1), 'no run holds pieces of both paragraphs');
    const starts = runs.filter((r) => r.starts).map((r) => [...words(r)][0]);
    assert.deepEqual(starts, ['alpha', 'beta'], 'each paragraph starts a run (with its top margin)');
    assert.ok(runs.filter((r) => words(r).has('alpha')).length > 1, 'a paragraph of ~20 KB spans more than one run');
  });
});
