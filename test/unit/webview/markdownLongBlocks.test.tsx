// Long blocks streamed into the webview's Markdown: cut into pieces whose renders stay small, in linear cost,
// spread over frames within the render budget. (The heaviest Markdown tests: a file of their own so a
// parallel run can put them beside the rest.)
import './setupDom';
import * as assert from 'node:assert/strict';
import { IncrementalMarkdown, type MarkdownBlock, type MarkdownView } from '../../../webview-ui/src/markdown';
import { markupCost } from '../../../webview-ui/src/markdownRender';
import { CODE_PIECE, CutScanner, findCuts, forcedCut, SOFT_TAIL } from '../../../webview-ui/src/markdownBlocks';
import { htmlOf, streamInto, viewHtml } from './markdownViews';


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
