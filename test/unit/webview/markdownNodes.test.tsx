import './setupDom';
import * as assert from 'node:assert/strict';
import { render } from 'preact';
import { Markdown } from '../../../webview-ui/src/components/Markdown';
import { rangesOf } from '../../../webview-ui/src/find/highlight';
import { IncrementalMarkdown } from '../../../webview-ui/src/markdown';
import { sanitizeToNodes } from '../../../webview-ui/src/markdownRender';
import { markdownCache } from '../../../webview-ui/src/markdownCache';
import { setMarkdownBudget } from '../../../webview-ui/src/renderBudget';
import { streamKey, textStreams } from '../../../webview-ui/src/textStreams';

// Markdown is sanitised into nodes once per block and the view inserts them (a copy on a later mount): what it
// shows must be what the HTML path showed (inert, whole, findable), and a block must be shown again unparsed.

const HOSTILE =
  '<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">j</a>' +
  '<svg><style><img src=x onerror=alert(4)></style></svg><button onclick="alert(5)" type="submit">b</button>' +
  '<div style="background:url(javascript:alert(6))" data-x="1" id="clobber">d</div><form><input name="attributes"></form>';

function inert(root: ParentNode): void {
  assert.equal(root.querySelectorAll('script, img, svg, style, form, input, iframe, object').length, 0);
  for (const el of root.querySelectorAll('*')) {
    for (const a of el.getAttributeNames()) assert.ok(!/^on|^style$|^id$|^data-x$/.test(a), `${el.tagName} kept ${a}`);
    const href = el.getAttribute('href');
    assert.ok(href === null || !/^\s*javascript:/i.test(href), `href ${href}`);
  }
  for (const b of root.querySelectorAll('button')) assert.equal(b.getAttribute('type'), 'button');
}

describe('webview markdown: sanitised into nodes, inserted as they are', () => {
  beforeEach(() => setMarkdownBudget(Infinity));
  afterEach(() => setMarkdownBudget(8));

  it('hostile HTML given to the sanitiser directly comes back as inert nodes', () => {
    const nodes = sanitizeToNodes(HOSTILE);
    inert(nodes);
    assert.match(nodes.textContent ?? '', /j.*b.*d/s, 'the text of allowed elements stays');
  });

  it('hostile Markdown streamed into a mounted view leaves nothing that runs, in the DOM or the kept nodes', () => {
    const root = document.body.appendChild(document.createElement('div'));
    try {
      const text = `Intro\n\n${HOSTILE}\n\n[x](javascript:alert(7)) ![i](javascript:alert(8))\n\n\`\`\`html\n${HOSTILE}\n\`\`\`\n\nEnd`;
      for (let i = 1; i <= text.length; i += 7) render(<Markdown text={text.slice(0, i)} />, root);
      render(<Markdown text={text} />, root);
      inert(root);
      assert.ok(root.querySelector('code')?.textContent?.includes('<script>alert(2)</script>'), 'fenced HTML is shown as text');
      const inc = new IncrementalMarkdown();
      for (const b of inc.update(text).blocks) if (b.kind === 'html') inert(b.nodes);
    } finally {
      render(null, root);
      root.remove();
    }
  });

  it("each block's nodes are built once: a finished block stays the same object as text is appended", () => {
    const inc = new IncrementalMarkdown();
    const first = '## Alpha\n\nPara *one* and `code`.\n\n';
    const block = inc.update(`${first}Tail`).blocks[0];
    const renders = inc.renders;
    const view = inc.update(`${first}Tail grows\n\nMore`);
    assert.equal(view.blocks[0], block, 'the finished block is the same object, its nodes with it');
    assert.equal(inc.renders - renders, 2, 'only the new text was rendered: a block and the tail');
  });

  it('the first mount moves the sanitised nodes in; a remount from the cache copies them, rendering nothing', () => {
    const key = streamKey('s1', 'item1', 0);
    const text = '## Kept\n\nA paragraph with **bold**.\n\nThe tail';
    const root = document.body.appendChild(document.createElement('div'));
    const other = document.body.appendChild(document.createElement('div'));
    try {
      textStreams.reset();
      render(<Markdown text={text} stream={key} />, root);
      const before = root.innerHTML;
      const first = root.querySelector('h2');
      assert.equal(first?.ownerDocument, document, 'in the live document');
      render(null, root);
      const state = markdownCache.take(key, text);
      const view = state.inc.update(text);
      const block = view.blocks[0];
      assert.ok(block.kind === 'html' && block.nodes.childNodes.length === 0, 'the nodes were moved into the view, not copied');
      const renders = state.inc.renders;
      markdownCache.put(key, state);
      render(<Markdown text={text} stream={key} />, other);
      assert.equal(state.inc.renders, renders, 'remounting parsed and sanitised nothing');
      assert.equal(other.innerHTML, before, 'the same markup again');
      const again = other.querySelector('h2');
      assert.ok(again && again !== first, 'a copy: the first element keeps its own');
      assert.equal(first?.textContent, 'Kept');
      assert.equal(again.ownerDocument, document);
    } finally {
      render(null, root);
      render(null, other);
      root.remove();
      other.remove();
    }
  });

  it('find and the code toolbar see the text: ranges over the inserted nodes, the code under its buttons', () => {
    const root = document.body.appendChild(document.createElement('div'));
    try {
      const text = 'Needle in a **needle** stack.\n\n```ts\nconst needle = 1;\n```\n\n- a needle item\n\nLast';
      render(<Markdown text={text} />, root);
      const ranges = rangesOf(root, 'needle');
      assert.equal(ranges.length, 4);
      assert.deepEqual(
        ranges.map((r) => r.toString().toLowerCase()),
        ['needle', 'needle', 'needle', 'needle'],
      );
      const copy = root.querySelector<HTMLButtonElement>('[data-code-action="copy"]');
      assert.equal(copy?.getAttribute('aria-label'), 'Copy code');
      assert.equal(copy?.closest('.code-block')?.querySelector('code')?.textContent, 'const needle = 1;\n');
    } finally {
      render(null, root);
      root.remove();
    }
  });
});
