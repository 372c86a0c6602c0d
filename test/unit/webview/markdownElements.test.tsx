import './setupDom';
import * as assert from 'node:assert/strict';
import { render } from 'preact';
import { Markdown } from '../../../webview-ui/src/components/Markdown';
import { setMarkdownBudget } from '../../../webview-ui/src/renderBudget';

// What a streamed answer puts in the DOM: each finished block built once, the replaced text shown alone, bad
// input inert; a code block's buttons one element each, still named and typed as before.

function mount(): { root: HTMLElement; show: (text: string) => void; done: () => void } {
  const root = document.createElement('div');
  document.body.appendChild(root);
  return {
    root,
    show: (text) => render(<Markdown text={text} />, root),
    done: () => {
      render(null, root);
      root.remove();
    },
  };
}

/** The visible words of the view, in document order. */
const words = (root: HTMLElement) => (root.textContent ?? '').split(/\s+/).filter(Boolean).join(' ');

describe('webview markdown: the elements a streamed answer adds', () => {
  beforeEach(() => setMarkdownBudget(Infinity));
  afterEach(() => setMarkdownBudget(8));

  it("appending keeps the earlier blocks' elements; each block is in the DOM once", () => {
    const m = mount();
    try {
      const first = '## Alpha\n\nPara *one*.\n\n## Beta\n\nPara two.\n\n';
      m.show(`${first}Still wri`);
      const heading = m.root.querySelector('h2');
      assert.equal(heading?.textContent, 'Alpha');
      m.show(`${first}Still writing.\n\n- item a\n- item b\n\nThe tail`);
      m.show(`${first}Still writing.\n\n- item a\n- item b\n\nThe tail grows`);
      assert.equal(m.root.querySelector('h2'), heading, 'the first block was not built again');
      assert.ok(heading?.isConnected);
      assert.equal(words(m.root), 'Alpha Para one. Beta Para two. Still writing. item a item b The tail grows');
      assert.equal(m.root.querySelectorAll('h2').length, 2, 'each block once');
      assert.equal(m.root.querySelectorAll('li').length, 2);
      assert.equal(m.root.querySelector('em')?.textContent, 'one', 'marks kept');
    } finally {
      m.done();
    }
  });

  it('a text that was replaced, not appended to, is shown whole and alone', () => {
    const m = mount();
    try {
      m.show('First answer.\n\nWith two paragraphs.\n\nAnd more');
      m.show('Another **answer**.\n\nSecond.\n\nThird');
      assert.equal(words(m.root), 'Another answer. Second. Third');
      assert.equal(m.root.querySelector('strong')?.textContent, 'answer');
      m.show('');
      assert.equal(words(m.root), '');
      m.show('Back.\n\nAgain.\n\n');
      assert.equal(words(m.root), 'Back. Again.');
    } finally {
      m.done();
    }
  });

  it('hostile Markdown streamed block by block stays inert', () => {
    const m = mount();
    try {
      const hostile = ['<script>alert(1)</script> hi', '<img src=x onerror="alert(1)">', '[x](javascript:alert(1))', '<svg onload=alert(1)>', '<p>unclosed <b>tags'];
      let text = '';
      for (const h of hostile) {
        text += `${h}\n\n`;
        m.show(text);
      }
      m.show(`${text}end`);
      assert.equal(m.root.querySelectorAll('script, img, svg, iframe').length, 0, m.root.innerHTML);
      for (const el of Array.from(m.root.querySelectorAll('*'))) {
        for (const a of Array.from(el.attributes)) assert.ok(!/^on/i.test(a.name), `${a.name} on ${el.tagName}`);
      }
      assert.equal(m.root.querySelector('a')?.getAttribute('href') ?? null, null, 'the javascript: link has no href');
      assert.match(words(m.root), /end$/);
    } finally {
      m.done();
    }
  });

  const buttons = [
    ['copy', 'Copy code', 'codicon-copy'],
    ['insert', 'Insert code at cursor', 'codicon-insert'],
    ['open', 'Open code in editor', 'codicon-go-to-file'],
  ];

  function assertToolbar(block: Element): void {
    const found = Array.from(block.querySelectorAll('button')).map((b) => {
      assert.equal(b.getAttribute('type'), 'button');
      assert.equal(b.children.length, 0, 'the icon is the button itself');
      assert.ok(b.classList.contains('icon-button') && b.classList.contains('codicon'), b.className);
      return [b.getAttribute('data-code-action'), b.getAttribute('aria-label'), b.className.split(' ').find((c) => c.startsWith('codicon-'))];
    });
    assert.deepEqual(found, buttons);
  }

  it("a code block's Copy / Insert / Open are one named element each, highlighted or streamed", () => {
    const m = mount();
    try {
      m.show('Before.\n\n```js\nconsole.log(1);\n```\n\nAfter.');
      const small = m.root.querySelector('.code-block')!;
      assert.equal(small.getAttribute('data-lang'), 'js');
      assert.equal(small.querySelector('.code-lang')?.textContent, 'js');
      assert.ok(small.querySelector('pre code .hljs-number'), 'highlighted');
      assertToolbar(small);
      // A fence still open streams as plain pieces (CodeBlockView): the same toolbar.
      m.show('Start.\n\n```ts\nconst a = 1;\nconst b = 2;\n');
      const open = m.root.querySelector('.code-block')!;
      assert.equal(open.getAttribute('data-lang'), 'ts');
      assert.match(open.querySelector('pre code')?.textContent ?? '', /const b = 2;/);
      assertToolbar(open);
    } finally {
      m.done();
    }
  });
});
