import './setupDom';
import './helpers';
import * as assert from 'node:assert/strict';
import { render } from 'preact';
import { Markdown } from '../../../webview-ui/src/components/Markdown';
import { MarkdownCache, markdownCache } from '../../../webview-ui/src/markdownCache';
import { streamKey, textStreams } from '../../../webview-ui/src/textStreams';
import { htmlOf } from './markdownViews';

const TEXT = '**Message 3** with `inline code` and a [link](https://example.com/3).\n\n- first point\n- second point\n';

describe('webview markdown cache: a block scrolled out of the DOM is not parsed again', () => {
  it('gives back the state kept for the same text, rendered once', () => {
    const cache = new MarkdownCache();
    const state = cache.take('a', TEXT);
    state.inc.update(TEXT);
    const renders = state.inc.renders;
    assert.ok(renders > 0);
    cache.put('a', state);
    const again = cache.take('a', TEXT);
    assert.equal(again, state);
    const view = again.inc.update(TEXT);
    assert.equal(again.inc.renders, renders, 'no markdown-it render for the same text');
    assert.ok(view.blocks.some((b) => b.kind === 'html' && htmlOf(b).includes('<strong>Message 3</strong>')));
    assert.equal(cache.size, 0, 'taken: one mounted component owns it');
  });

  it('drops the kept state when the text was replaced, keeps it (incremental) when text was appended', () => {
    const cache = new MarkdownCache();
    const state = cache.take('a', TEXT);
    state.inc.update(TEXT);
    cache.put('a', state);
    const replaced = cache.take('a', 'Something else entirely');
    assert.notEqual(replaced, state);
    assert.equal(replaced.inc.renders, 0);
    const fresh = replaced.inc.update('Something else entirely');
    assert.ok(fresh.blocks.length > 0 || fresh.tail !== undefined);

    cache.put('b', state);
    const longer = `${TEXT}\nAnd one more paragraph.\n`;
    const appended = cache.take('b', longer);
    assert.equal(appended, state, 'an append keeps the rendered blocks');
    const firstBlock = state.inc.update(TEXT).blocks[0];
    const view = appended.inc.update(longer);
    assert.equal(view.blocks[0], firstBlock, 'the finished block is not rendered again');
    const html = [...view.blocks, ...(view.tail ? [view.tail] : [])].map((b) => (b.kind === 'html' ? htmlOf(b) : '')).join('');
    assert.match(html, /one more paragraph/);
    assert.match(html, /<strong>Message 3<\/strong>/);
  });

  it('keeps at most its capacity, the least recently used evicted first', () => {
    const cache = new MarkdownCache(2);
    const a = cache.take('a', 'a');
    const b = cache.take('b', 'b');
    const c = cache.take('c', 'c');
    cache.put('a', a);
    cache.put('b', b);
    cache.put('a', cache.take('a', 'a'));
    cache.put('c', c);
    assert.equal(cache.size, 2);
    assert.notEqual(cache.take('b', 'b'), b, 'b was the least recently used');
    assert.equal(cache.take('a', 'a'), a);
    assert.equal(cache.take('c', 'c'), c);
  });

  it('a block without a key is never kept', () => {
    const cache = new MarkdownCache();
    const state = cache.take(undefined, TEXT);
    assert.notEqual(cache.take(undefined, TEXT), state);
    assert.equal(cache.size, 0);
  });

  it('the Markdown component puts its state back on unmount and takes it on mount: remounting parses nothing', () => {
    const key = streamKey('cache-test-session', 'item-1', 0);
    const root = document.createElement('div');
    document.body.appendChild(root);
    try {
      render(<Markdown text={TEXT} stream={key} />, root);
      const first = root.innerHTML;
      assert.match(first, /<strong>Message 3<\/strong>/);
      render(null, root);
      const kept = markdownCache.take(key, TEXT);
      const renders = kept.inc.renders;
      assert.ok(renders > 0);
      markdownCache.put(key, kept);

      render(<Markdown text={TEXT} stream={key} />, root);
      assert.equal(root.innerHTML, first, 'the same HTML');
      render(null, root);
      const again = markdownCache.take(key, TEXT);
      assert.equal(again, kept);
      assert.equal(again.inc.renders, renders, 'not parsed again');
      markdownCache.put(key, again);

      // The item changed while it was out of the DOM: the new text is shown.
      const changed = 'A **different** answer.';
      render(<Markdown text={changed} stream={key} />, root);
      assert.match(root.innerHTML, /<strong>different<\/strong>/);
      assert.doesNotMatch(root.innerHTML, /Message 3/);
      render(null, root);

      // Text appended by the host's ops while it was out of the DOM: shown, the kept blocks reused.
      const more = `${changed}\n\nAnd a second paragraph.`;
      textStreams.append(key, more.slice(changed.length));
      render(<Markdown text={more} stream={key} />, root);
      assert.match(root.innerHTML, /<strong>different<\/strong>/);
      assert.match(root.innerHTML, /a second paragraph/);
    } finally {
      render(null, root);
      root.remove();
    }
  });
});
