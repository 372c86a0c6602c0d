// What a streamed Markdown view shows, for the webview's Markdown tests: a block's HTML, the whole view as
// elements, and a text streamed into an IncrementalMarkdown chunk by chunk.
import type { IncrementalMarkdown, MarkdownBlock, MarkdownView } from '../../../webview-ui/src/markdown';
import { renderMarkdownNodes } from '../../../webview-ui/src/markdownRender';

/** The HTML of sanitised nodes (what innerHTML would show for them). */
function nodesHtml(nodes: DocumentFragment): string {
  const box = nodes.ownerDocument.createElement('div');
  box.appendChild(nodes.cloneNode(true));
  return box.innerHTML;
}

/** The sanitised HTML a Markdown text renders to. */
export function renderMarkdown(text: string): string {
  return nodesHtml(renderMarkdownNodes(text).nodes);
}

/** Streams `chunks` into `inc`, one update per chunk; the last view and the longest live tail's HTML. */
export function streamInto(inc: IncrementalMarkdown, chunks: string[]): { view: MarkdownView; longestTail: number } {
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

/** A block's HTML as the view shows it (a code block's pieces as one escaped code element). */
export function htmlOf(b: MarkdownBlock): string {
  if (b.kind === 'html') return nodesHtml(b.nodes);
  const host = document.createElement('div');
  const code = document.createElement('code');
  code.textContent = b.pieces.join('');
  host.appendChild(document.createElement('pre')).appendChild(code);
  return `<div class="code-block">${host.innerHTML}</div>`;
}

/** The whole view (finished blocks and the live tail) as elements. */
export function viewHtml(v: MarkdownView): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = [...v.blocks, ...(v.tail ? [v.tail] : [])]
    .map((b) => `<div class="${b.kind === 'html' && b.inline ? 'md-inline' : 'md-block'}">${htmlOf(b)}</div>`)
    .join('');
  return host;
}
