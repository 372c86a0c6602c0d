import './setupDom';
import * as assert from 'node:assert/strict';
import { IncrementalMarkdown, isSafeHref, markupCost, renderMarkdown, type MarkdownBlock, type MarkdownView } from '../../../webview-ui/src/markdown';
import { CODE_PIECE, CutScanner, findCuts, forcedCut, SOFT_TAIL } from '../../../webview-ui/src/markdownBlocks';
import { TextStreams } from '../../../webview-ui/src/textStreams';
import { BlockPages, PAGE_SIZE, RUN_PIECES, type Run } from '../../../webview-ui/src/blockPages';
import { frameMarkup, markdownDeadline, setMarkdownBudget } from '../../../webview-ui/src/renderBudget';
import { render } from 'preact';
import { Markdown } from '../../../webview-ui/src/components/Markdown';

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


function streamInto(inc: IncrementalMarkdown, chunks: string[]): { view: MarkdownView; longestTail: number } {
  let text = '';
  let view = inc.update('');
  let longestTail = 0;
  for (const c of chunks) {
    text += c;
    view = inc.update(text);
    longestTail = Math.max(longestTail, view.tail ? htmlOf(view.tail).length : 0);
  }
  return { view, longestTail };
}

describe('webview markdown: long blocks stream with bounded cost', () => {
  it('a 5,000-chunk paragraph is cut at spaces into inline pieces: each render stays small, the text is whole', () => {
    const chunks = Array.from({ length: 5000 }, (_, i) => `chunk ${i} `);
    const inc = new IncrementalMarkdown();
    const { view, longestTail } = streamInto(inc, chunks);
    assert.ok(longestTail < 2 * SOFT_TAIL, `longest live tail ${longestTail}`);
    assert.ok(view.blocks.length > 10, 'cut into pieces');
    assert.ok([...view.blocks, view.tail].every((b) => b?.kind === 'html' && b.inline), 'every piece continues the paragraph');
    assert.ok(view.blocks.every((b) => htmlOf(b).length < 2 * SOFT_TAIL));
    const shown = viewHtml(view).textContent!.replace(/\s+/g, ' ').trim();
    assert.equal(shown, chunks.join('').trim(), 'no word lost or glued at a cut');
    // Each piece rendered once, plus one tail render per chunk: linear.
    assert.ok(inc.renders <= chunks.length + view.blocks.length + 1, `renders=${inc.renders}`);
    // The growing line is searched for its end once, not from its start on every chunk.
    assert.ok(inc.searchedChars <= chunks.join('').length, `searchedChars=${inc.searchedChars}`);
  });

  it('a paragraph is not cut inside a code span or link text, nor before a list marker', () => {
    const word = 'word '.repeat(SOFT_TAIL / 5 - 10);
    const text = word + '`code with spaces ' + 'x '.repeat(40) + '` and [link text ' + 'y '.repeat(40) + '](https://e.x) tail - item';
    const cut = forcedCut(text + ' more '.repeat(200));
    assert.ok(cut, 'cut somewhere');
    const piece = text.slice(0, cut.at);
    assert.equal((piece.match(/`/g) ?? []).length % 2, 0, `cut inside a code span: …${piece.slice(-30)}`);
    assert.ok(!/\[[^\]]*$/.test(piece), 'cut inside link text');
    assert.match((text + ' more '.repeat(200))[cut.at], /\p{L}/u, 'the next piece starts with a letter');
  });

  it('a very long tail: a paragraph is cut near its start, a fence opener is never cut, whatever follows', () => {
    const paragraph = 'word '.repeat(40_000);
    const cut = forcedCut(paragraph);
    assert.ok(cut && cut.at <= SOFT_TAIL && cut.paragraph);
    assert.equal(forcedCut('```js ' + 'x'.repeat(40_000)), undefined, 'a fence line longer than the first-line search');
    assert.equal(forcedCut('```js\n' + 'code '.repeat(20_000)), undefined);
  });

  it('a long list is cut between items; the items and their numbers stay', () => {
    const items = Array.from({ length: 400 }, (_, i) => `${i + 1}. item number ${i + 1} with some text`);
    const chunks = (items.join('\n') + '\n').match(/[\s\S]{1,13}/g)!;
    const inc = new IncrementalMarkdown();
    const { view, longestTail } = streamInto(inc, chunks);
    assert.ok(longestTail < 2 * SOFT_TAIL, `longest live tail ${longestTail}`);
    const host = viewHtml(view);
    const lis = [...host.querySelectorAll('li')].map((li) => li.textContent);
    assert.equal(lis.length, 400);
    assert.ok(view.blocks.length > 3 && view.blocks.every((b) => b.kind === 'html' && !b.inline));
    // Ordered lists continue their numbering after a cut.
    const ols = [...host.querySelectorAll('ol')];
    assert.ok(ols.length > 1);
    assert.equal(ols[1].getAttribute('start'), String(ols[0].querySelectorAll('li').length + 1));
  });

  it('a code fence streams as text pieces without markdown-it: finished pieces keep their identity', () => {
    const inc = new IncrementalMarkdown();
    let text = 'Here:\n\n```js\n';
    const seen: MarkdownView[] = [];
    for (let i = 0; i < 2000; i++) {
      text += `const v${i} = "<script>alert(${i})</script>";\n`;
      if (i % 100 === 99) seen.push(inc.update(text));
    }
    assert.equal(inc.renders, 1, 'only the paragraph before the fence went through markdown-it');
    const open = seen[seen.length - 1];
    assert.equal(open.tail?.kind, 'code');
    const pieces = (open.tail as Extract<MarkdownBlock, { kind: 'code' }>).pieces;
    assert.ok(pieces.length > 10 && pieces.slice(0, -1).every((p) => p.length <= CODE_PIECE && p.endsWith('\n')), 'cut at line ends');
    const earlier = (seen[seen.length - 2].tail as Extract<MarkdownBlock, { kind: 'code' }>).pieces;
    assert.equal(pieces[0], earlier[0], 'the same string: the piece is not rebuilt');
    assert.equal(open.tail!.key, seen[0].tail!.key, 'one key while streaming');
    const host = viewHtml(open);
    assert.equal(host.querySelectorAll('script').length, 0);
    assert.match(host.querySelector('pre code')!.textContent!, /const v1999 = "<script>alert\(1999\)<\/script>";\n$/);
    // Closed and long: stays as pieces, same key (nothing re-mounted), not highlighted — first as the
    // live tail (nothing follows the fence yet), then as a finished block.
    const closedTail = inc.update(text + '```\n');
    assert.equal(closedTail.tail?.kind, 'code');
    assert.equal(closedTail.tail!.key, open.tail!.key);
    assert.equal((closedTail.tail as Extract<MarkdownBlock, { kind: 'code' }>).pieces[0], pieces[0]);
    const closed = inc.update(text + '```\n\nafter');
    const block = closed.blocks.find((b) => b.kind === 'code');
    assert.ok(block && block.key === open.tail!.key);
    assert.equal(viewHtml(closed).querySelector('pre code')!.textContent, text.slice(text.indexOf('```js\n') + 6));
  });

  it('an open fence costs the lines a chunk adds, not a rescan of the fence', () => {
    const inc = new IncrementalMarkdown();
    let text = 'Here:\n\n```js\n';
    inc.update(text);
    for (let i = 0; i < 5000; i++) {
      text += `line ${i}\n`;
      inc.update(text);
    }
    // Each line once (a rescan per chunk would be ~12.5 million).
    assert.ok(inc.scannedLines <= 5010, `scannedLines=${inc.scannedLines}`);
    const tail = inc.update(text).tail as Extract<MarkdownBlock, { kind: 'code' }>;
    assert.equal(tail.pieces.join(''), text.slice(text.indexOf('```js\n') + 6));
  });

  it('resuming the cut scan over appended chunks finds the same cuts as one scan of the whole text', () => {
    const parts = ['para with words', '', '```js', 'code', '', 'more', '```', 'after fence', '# Heading', 'body', '- item', '- item 2', '',
      '  indented', '~~~', 'tilde code', '~~~~', '', '> quote', '```', 'unclosed at the end'];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 5 + rand(30) }, () => parts[rand(parts.length)]).join('\n');
      const scanner = new CutScanner();
      let end = 0;
      while (end < text.length) {
        end = Math.min(text.length, end + 1 + rand(12));
        const prefix = text.slice(0, end);
        assert.deepEqual(scanner.cuts(prefix, 0).slice(), findCuts(prefix, 0), `round ${round}: ${JSON.stringify(prefix)}`);
      }
    }
  });

  it('a short code fence is highlighted once closed', () => {
    const inc = new IncrementalMarkdown();
    const open = viewHtml(inc.update('```js\nconst a = 1;\n'));
    assert.equal(open.querySelector('pre code .hljs-keyword'), null, 'plain while open');
    const closed = viewHtml(inc.update('```js\nconst a = 1;\n```\n'));
    assert.ok(closed.querySelector('pre code .hljs-keyword'), 'highlighted once closed');
  });

  it('a burst of finished blocks is rendered within the time budget, the rest on later updates', () => {
    const full = Array.from({ length: 50 }, (_, i) => `## Part ${i}\n\nText ${i} ${'word '.repeat(60)}`).join('\n\n') + '\n\nend';
    const inc = new IncrementalMarkdown();
    const first = inc.update(full, 0);
    assert.equal(first.pending, true);
    assert.equal(first.blocks.length, 1, 'at least one block per update, then the budget stops it');
    assert.equal(first.tail, undefined, 'nothing past the rendered blocks is shown yet');
    let view = first;
    let updates = 1;
    while (view.pending && updates < 500) {
      view = inc.update(full, 0);
      updates++;
    }
    assert.equal(view.pending, false);
    assert.ok(updates >= 5, `${updates} updates`);
    assert.ok(inc.renders < 50, `small blocks that arrive together share a render: ${inc.renders}`);
    assert.equal(viewHtml(view).textContent!.replace(/\s+/g, ' ').trim(), viewHtml(new IncrementalMarkdown().update(full)).textContent!.replace(/\s+/g, ' ').trim());
  });

  it('a burst of small blocks is spread over frames by the HTML it makes, however fast markdown-it is', () => {
    const full = Array.from({ length: 1000 }, (_, i) => `### Section ${i}\n\nSome **bold** text.\n\n- one\n- two`).join('\n\n') + '\n\nend';
    const CAP = 2_000;
    const inc = new IncrementalMarkdown();
    let view: MarkdownView | undefined;
    let frames = 0;
    let shown = 0;
    do {
      let spent = 0;
      // No time limit: only the markup budget stops a frame.
      view = inc.update(full, Infinity, { spend: (n) => void (spent += n), exhausted: () => spent >= CAP, started: () => spent > 0 });
      const added = view.blocks.slice(shown);
      shown = view.blocks.length;
      // The render that crosses the budget is the frame's last (small blocks share one render of up to SOFT_TAIL).
      const before = added.slice(0, -1).reduce((n, b) => n + htmlOf(b).length, 0);
      assert.ok(before < CAP, `frame ${frames}: ${before} characters of markup before its last block`);
      frames++;
    } while (view.pending && frames < 1000);
    assert.equal(view.pending, false);
    assert.ok(frames > 10, `${frames} frames`);
    assert.equal(viewHtml(view).textContent!.replace(/\s+/g, ' ').trim(), viewHtml(new IncrementalMarkdown().update(full)).textContent!.replace(/\s+/g, ' ').trim());
  });
  it('markup is weighed per element as well as per character: short sections take more frames than plain text of the same length', () => {
    assert.equal(markupCost('<p>a</p>'), 8 + 2 * 30);
    assert.equal(markupCost('plain'), 5);
    const sections = Array.from({ length: 300 }, (_, i) => `### Section ${i}\n\nSome **bold** and \`code\`.\n\n- one\n- two`).join('\n\n');
    const words = 'plain words of an answer that is mostly prose '.repeat(Math.ceil(sections.length / 46)).slice(0, sections.length);
    const prose = words.replace(/(.{180}) /g, '$1\n\n');
    const CAP = 12_000;
    const framesFor = (full: string): { frames: number; maxElements: number } => {
      const inc = new IncrementalMarkdown();
      let view: MarkdownView;
      let frames = 0;
      let shown = 0;
      let maxElements = 0;
      do {
        let spent = 0;
        view = inc.update(full, Infinity, { spend: (n) => void (spent += n), exhausted: () => spent >= CAP, started: () => spent > 0 });
        // Elements the frame added before its last render (the render that crosses the budget is the frame's last).
        const added = view.blocks.slice(shown, -1);
        shown = view.blocks.length;
        maxElements = Math.max(maxElements, added.reduce((n, b) => n + (htmlOf(b).match(/<[a-z]/g)?.length ?? 0), 0));
        frames++;
      } while (view.pending && frames < 1000);
      return { frames, maxElements };
    };
    const s = framesFor(sections);
    const p = framesFor(prose);
    assert.ok(s.frames > 3 * p.frames, `sections ${s.frames} frames, prose of the same length ${p.frames}`);
    assert.ok(s.maxElements <= CAP / 30, `at most ${CAP / 30} elements before a frame's last render: ${s.maxElements}`);
  });

  it('the frame budget is shared: once one message spent it, the next waits, tail included, and follows on a later frame', () => {
    const message = (i: number) => `**Message ${i}** with \`inline code\` and a [link](https://example.com/${i}).\n\n- first point of ${i}\n- second point\n`;
    const CAP = 50;
    let spent = 0;
    const frame = { spend: (n: number) => void (spent += n), exhausted: () => spent >= CAP, started: () => spent > 0 };
    const messages = Array.from({ length: 10 }, () => new IncrementalMarkdown());
    // Ten messages mounted in one frame: the budget covers the first, not ten first blocks.
    const views = messages.map((inc, i) => inc.update(message(i), Infinity, frame));
    assert.equal(views[0].pending, true, 'the first message renders its first block, then the budget stops it');
    assert.equal(views[0].blocks.length, 1);
    for (const [i, v] of views.slice(1).entries()) {
      assert.equal(v.pending, true, `message ${i + 1} waits`);
      assert.equal(v.blocks.length + (v.tail ? 1 : 0), 0, `message ${i + 1} shows nothing yet`);
    }
    // Later frames: every message completes, the same as rendered at once.
    let frames = 1;
    let latest = views;
    while (latest.some((v) => v.pending) && frames < 100) {
      spent = 0;
      latest = messages.map((inc, i) => inc.update(message(i), Infinity, frame));
      frames++;
    }
    assert.ok(frames >= 10, `${frames} frames`);
    for (const [i, v] of latest.entries()) {
      assert.equal(v.pending, false);
      assert.equal(viewHtml(v).innerHTML, viewHtml(new IncrementalMarkdown().update(message(i))).innerHTML);
    }
  });

  it('a streamed tail that only grew stays on screen while the frame has no budget left', () => {
    const inc = new IncrementalMarkdown();
    const grown = inc.update('Para one\n\nstreaming tail');
    assert.ok(grown.tail);
    const spentFrame = { spend: () => undefined, exhausted: () => true, started: () => true };
    const waiting = inc.update('Para one\n\nstreaming tail grows', Infinity, spentFrame);
    assert.equal(waiting.pending, true);
    assert.equal(waiting.tail, grown.tail, 'the tail as last rendered, not nothing');
    const next = inc.update('Para one\n\nstreaming tail grows', Infinity);
    assert.match(viewHtml(next).textContent ?? '', /streaming tail grows/);
  });
});

function htmlOf(b: MarkdownBlock): string {
  if (b.kind === 'html') return b.html;
  const host = document.createElement('div');
  const code = document.createElement('code');
  code.textContent = b.pieces.join('');
  host.appendChild(document.createElement('pre')).appendChild(code);
  return `<div class="code-block">${host.innerHTML}</div>`;
}

function viewHtml(v: MarkdownView): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = [...v.blocks, ...(v.tail ? [v.tail] : [])]
    .map((b) => `<div class="${b.kind === 'html' && b.inline ? 'md-inline' : 'md-block'}">${htmlOf(b)}</div>`)
    .join('');
  return host;
}

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
