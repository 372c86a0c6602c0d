// Agent Markdown -> sanitised HTML, incrementally.
// Agent output is untrusted: markdown-it with raw HTML disabled and a link allow-list (http, https, mailto,
// relative), then DOMPurify with a tag/attribute allow-list. Links never navigate the webview: clicks are
// delegated to the host (openLink), which opens only http(s)/mailto through VS Code's confirmation.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlight } from './highlight';

type Md = InstanceType<typeof MarkdownIt>;

const SAFE_LINK = /^(?:https?:|mailto:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function isSafeHref(href: string): boolean {
  const h = href.trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(h)) return false;
  if (SAFE_LINK.test(h)) return true;
  return !HAS_SCHEME.test(h) && !h.startsWith('//');
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Highlight only blocks up to this size (keeps a streamed giant code block cheap). */
const MAX_HIGHLIGHT = 20_000;

function codeBlock(code: string, info: string): string {
  const lang = (info.trim().split(/\s+/)[0] ?? '').toLowerCase().replace(/[^\w+#-]/g, '');
  const hl = code.length <= MAX_HIGHLIGHT ? highlight(code, lang) : undefined;
  const body = hl ?? escapeHtml(code);
  const label = lang ? `<span class="code-lang">${escapeHtml(lang)}</span>` : '<span class="code-lang"></span>';
  return (
    `<div class="code-block" data-lang="${escapeHtml(lang)}"><div class="code-toolbar">${label}` +
    `<button type="button" class="icon-button" data-code-action="copy" aria-label="Copy code" title="Copy"><span class="codicon codicon-copy" aria-hidden="true"></span></button>` +
    `<button type="button" class="icon-button" data-code-action="insert" aria-label="Insert code at cursor" title="Insert at cursor"><span class="codicon codicon-insert" aria-hidden="true"></span></button>` +
    `<button type="button" class="icon-button" data-code-action="open" aria-label="Open code in editor" title="Open in editor"><span class="codicon codicon-go-to-file" aria-hidden="true"></span></button>` +
    `</div><pre><code class="hljs${lang ? ` language-${escapeHtml(lang)}` : ''}">${body}</code></pre></div>`
  );
}

function createMarkdownIt(): Md {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
  md.validateLink = (url: string) => isSafeHref(url);
  md.renderer.rules.fence = (tokens, idx) => codeBlock(tokens[idx].content, tokens[idx].info);
  md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, '');
  // Images are not loaded (tracking pixels, CSP): shown as a link the user can open via the host.
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx];
    const src = String(t.attrGet('src') ?? '');
    const alt = t.content || src;
    return `<a href="${escapeHtml(src)}" class="md-image-link"><span class="codicon codicon-file-media" aria-hidden="true"></span>${escapeHtml(alt)}</a>`;
  };
  return md;
}

let mdInstance: Md | undefined;
function md(): Md {
  return (mdInstance ??= createMarkdownIt());
}

const ALLOWED_TAGS = [
  'a', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'button', 'sup', 'sub', 'kbd',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'start', 'type', 'aria-label', 'aria-hidden', 'data-code-action', 'data-lang', 'colspan', 'rowspan'];

let hooked = false;
function purifier(): typeof DOMPurify {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href');
        if (href !== null && !isSafeHref(href)) node.removeAttribute('href');
      }
      // Only our own code-toolbar buttons survive, and they are inert type=button.
      if (node.tagName === 'BUTTON') node.setAttribute('type', 'button');
    });
  }
  return DOMPurify;
}

export function sanitizeHtml(html: string): string {
  return purifier().sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  }) as string;
}

export function renderMarkdown(text: string): string {
  return sanitizeHtml(md().render(text));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Finds cut points in `text` from `from` (which must be outside a code fence): offsets of lines that
 * start a new top-level block after a blank line, outside fences. Everything before the last cut is
 * finished Markdown that later chunks cannot change (modulo reference-style links, accepted).
 */
export function findCuts(text: string, from: number): number[] {
  const cuts: number[] = [];
  let fence: { ch: string; len: number } | undefined;
  let prevBlank = false;
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const complete = nl >= 0;
    const end = complete ? nl : text.length;
    const line = text.slice(pos, end);
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len && !m[2].trim() && complete) fence = undefined;
      prevBlank = false;
    } else {
      const blank = line.trim() === '';
      if (!blank && prevBlank && !/^\s/.test(line) && pos > from) cuts.push(pos);
      if (m && complete) fence = { ch: m[1][0], len: m[1].length };
      prevBlank = blank && complete;
    }
    if (!complete) break;
    pos = nl + 1;
  }
  return cuts;
}

export interface MarkdownBlock {
  key: number;
  html: string;
}

/**
 * Streaming Markdown: finished blocks are rendered once and cached; only the live tail (the block still
 * being written) is re-rendered when text is appended. Non-append changes re-render from scratch.
 */
export class IncrementalMarkdown {
  private stable = '';
  private blocks: MarkdownBlock[] = [];
  private seq = 0;
  private tailSrc: string | undefined;
  private tailHtml = '';
  /** Number of markdown-it renders done (tests check that appends stay incremental). */
  renders = 0;

  update(text: string): { blocks: readonly MarkdownBlock[]; tail: string } {
    if (text.length < this.stable.length || !text.startsWith(this.stable)) {
      this.stable = '';
      this.blocks = [];
      this.tailSrc = undefined;
    }
    const from = this.stable.length;
    const cuts = findCuts(text, from);
    if (cuts.length) {
      let start = from;
      const added: MarkdownBlock[] = [];
      for (const cut of cuts) {
        const src = text.slice(start, cut);
        if (src.trim()) {
          this.renders++;
          added.push({ key: this.seq++, html: renderMarkdown(src) });
        }
        start = cut;
      }
      this.blocks = this.blocks.concat(added);
      this.stable = text.slice(0, start);
    }
    const tail = text.slice(this.stable.length);
    if (tail !== this.tailSrc) {
      this.tailSrc = tail;
      if (tail.trim()) {
        this.renders++;
        this.tailHtml = renderMarkdown(tail);
      } else this.tailHtml = '';
    }
    return { blocks: this.blocks, tail: this.tailHtml };
  }
}
