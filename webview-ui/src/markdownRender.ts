// Agent Markdown -> sanitised DOM nodes: one text at a time, for IncrementalMarkdown (markdown.ts).
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

/**
 * How much HTML a frame may still add (renderBudget.ts), shared by every message: rendering stops once it
 * is spent. The frame's first block is always rendered, so each frame makes progress; a message that comes
 * after it in a spent frame waits for the next (mounting ten messages is not ten first blocks).
 */
export interface MarkupBudget {
  spend(chars: number): void;
  exhausted(): boolean;
  /** Whether this frame has rendered anything yet. */
  started(): boolean;
}

/** What one element of new HTML costs the browser, in characters of text (see markupCost). */
const ELEMENT_COST = 30;

/**
 * What HTML costs the browser to parse, style, lay out and paint, counted in characters: its length plus
 * ELEMENT_COST per tag. Per element that work is far more than per character: a frame given 12,000
 * characters of short sections (~500 elements) took 50-60 ms, the same length of paragraph text a few.
 */
export function markupCost(html: string): number {
  let tags = 0;
  for (let i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) tags++;
  return html.length + ELEMENT_COST * tags;
}

/** Highlight only blocks up to this size (keeps a streamed giant code block cheap). */
export const MAX_HIGHLIGHT = 20_000;

/**
 * The buttons of a code block's toolbar (markdown-it's HTML and CodeBlockView both render these). Each is one
 * element: the icon is the button's own codicon glyph, its name the aria-label.
 */
export const CODE_ACTIONS = [
  { action: 'copy', label: 'Copy code', title: 'Copy', icon: 'copy' },
  { action: 'insert', label: 'Insert code at cursor', title: 'Insert at cursor', icon: 'insert' },
  { action: 'open', label: 'Open code in editor', title: 'Open in editor', icon: 'go-to-file' },
] as const;

/** The language id of a fence's info string, reduced to safe characters. */
export function fenceLanguage(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? '').toLowerCase().replace(/[^\w+#-]/g, '');
}

function codeBlock(code: string, info: string): string {
  const lang = fenceLanguage(info);
  const hl = code.length <= MAX_HIGHLIGHT ? highlight(code, lang) : undefined;
  const body = hl ?? escapeHtml(code);
  const label = lang ? `<span class="code-lang">${escapeHtml(lang)}</span>` : '<span class="code-lang"></span>';
  const buttons = CODE_ACTIONS.map(
    (a) =>
      `<button type="button" class="icon-button codicon codicon-${a.icon}" data-code-action="${a.action}" aria-label="${a.label}" title="${a.title}"></button>`,
  ).join('');
  return (
    `<div class="code-block" data-lang="${escapeHtml(lang)}"><div class="code-toolbar">${label}${buttons}` +
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

/**
 * DOMPurify with our allow-lists and hook, returning the sanitised nodes (a fragment of the inert document it
 * parsed into) rather than their HTML: the view moves them in (copies them for a later mount), so the markup
 * is neither serialised nor parsed again by innerHTML. Configured once: DOMPurify parses a config on every
 * call that passes one.
 */
let purifier: typeof DOMPurify | undefined;
function sanitizer(): typeof DOMPurify {
  if (!purifier) {
    purifier = DOMPurify(window);
    purifier.setConfig({
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
      RETURN_DOM_FRAGMENT: true,
    });
    purifier.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href');
        if (href !== null && !isSafeHref(href)) node.removeAttribute('href');
      }
      // Only our own code-toolbar buttons survive, and they are inert type=button.
      if (node.tagName === 'BUTTON') node.setAttribute('type', 'button');
    });
  }
  return purifier;
}

/** The sanitised nodes of `html`; `trailingSpace` appends a space text node (a cut paragraph's). */
export function sanitizeToNodes(html: string, trailingSpace = false): DocumentFragment {
  // The call's config only types the result: the one set above applies (DOMPurify ignores a call's own).
  const nodes = sanitizer().sanitize(html, { RETURN_DOM_FRAGMENT: true });
  if (trailingSpace) nodes.append(' ');
  return nodes;
}

/** Markdown as sanitised nodes and the markup cost of their HTML (markupCost, counted before sanitising). */
export function renderMarkdownNodes(text: string, trailingSpace = false): { nodes: DocumentFragment; cost: number } {
  const html = md().render(text);
  return { nodes: sanitizeToNodes(html, trailingSpace), cost: markupCost(html) };
}
