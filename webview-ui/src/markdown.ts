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

/** The buttons of a code block's toolbar (markdown-it's HTML and CodeBlockView both render these). */
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
      `<button type="button" class="icon-button" data-code-action="${a.action}" aria-label="${a.label}" title="${a.title}"><span class="codicon codicon-${a.icon}" aria-hidden="true"></span></button>`,
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

let configured = false;
/** DOMPurify parses its config on every call that passes one: set it (and the hook) once instead. */
function purifier(): typeof DOMPurify {
  if (!configured) {
    configured = true;
    DOMPurify.setConfig({
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    });
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
  return purifier().sanitize(html);
}

export function renderMarkdown(text: string): string {
  return sanitizeHtml(md().render(text));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

/** True for a line that opens a code fence (backtick fences may not have backticks in their info). */
interface FenceOpener {
  ch: string;
  len: number;
  info: string;
}

function fenceOpener(line: string): FenceOpener | undefined {
  const m = FENCE.exec(line);
  if (!m || (m[1][0] === '`' && m[2].includes('`'))) return undefined;
  return { ch: m[1][0], len: m[1].length, info: m[2] };
}

/** True for a line that closes the fence `opener` opened: same character, at least as long, nothing after. */
function closesFence(line: string, opener: FenceOpener): boolean {
  const m = FENCE.exec(line);
  return !!m && m[1][0] === opener.ch && m[1].length >= opener.len && !m[2].trim();
}

/**
 * Finds cut points in `text` from `from` (which must be outside a code fence): offsets of lines that
 * start a new top-level block, outside fences: after a blank line, or a complete line opening a fence
 * or an ATX heading (both end a paragraph, list or quote without a blank line). Everything before the
 * last cut is finished Markdown that later chunks cannot change (modulo reference-style links, accepted).
 */
export function findCuts(text: string, from: number): number[] {
  const cuts: number[] = [];
  let fence: FenceOpener | undefined;
  let prevBlank = false;
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const complete = nl >= 0;
    const end = complete ? nl : text.length;
    const line = text.slice(pos, end);
    if (fence) {
      if (complete && closesFence(line, fence)) fence = undefined;
      prevBlank = false;
    } else {
      const blank = line.trim() === '';
      const opener = complete ? fenceOpener(line) : undefined;
      const interrupts = complete && !/^\s/.test(line) && (opener !== undefined || ATX_HEADING.test(line));
      if (!blank && pos > from && ((prevBlank && !/^\s/.test(line)) || interrupts)) cuts.push(pos);
      if (opener) fence = opener;
      prevBlank = blank && complete;
    }
    if (!complete) break;
    pos = nl + 1;
  }
  return cuts;
}

function startsWithFence(text: string, pos: number): boolean {
  const nl = text.indexOf('\n', pos);
  return fenceOpener(text.slice(pos, nl < 0 ? text.length : nl)) !== undefined;
}

/** Above this many characters the live tail is cut even without a blank line (bounded cost per chunk). */
export const SOFT_TAIL = 2048;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** First lines of blocks a whitespace cut must not turn a paragraph's continuation into. */
const BLOCK_START = /^ {0,3}(?:[-*+>#|]|\d{1,9}[.)]|`{3}|~{3}|={2,}|-{2,})|^ {4}/;
const INTERRUPTING_LINE = /\n {0,3}(?:[-*+>|=#]|\d{1,9}[.)]|`{3}|~{3})/;

/**
 * Where to cut a long live tail that has no blank line: between list items (the list continues as a
 * second list that looks the same), or inside a plain paragraph at a space (the pieces are shown inline,
 * as one paragraph). Returns the offset and whether the cut splits a paragraph, or undefined.
 */
export function forcedCut(tail: string): { at: number; paragraph: boolean } | undefined {
  const firstEnd = tail.indexOf('\n');
  const first = firstEnd < 0 ? tail : tail.slice(0, firstEnd);
  if (fenceOpener(first)) return undefined;
  if (LIST_ITEM.test(first)) {
    let best = -1;
    for (let pos = firstEnd + 1; pos > 0 && pos < tail.length; ) {
      const nl = tail.indexOf('\n', pos);
      if (nl < 0) break; // the last line may still be growing into something else
      const line = tail.slice(pos, nl);
      if (fenceOpener(line)) break;
      if (LIST_ITEM.test(line)) best = pos;
      pos = nl + 1;
    }
    return best > 0 ? { at: best, paragraph: false } : undefined;
  }
  if (BLOCK_START.test(first)) return undefined;
  // The last space before SOFT_TAIL outside code spans and link text; after 4x that, any space.
  const limit = Math.min(tail.length - 1, SOFT_TAIL);
  let best = -1;
  let anySpace = -1;
  let ticks = 0;
  let brackets = 0;
  for (let i = 1; i <= limit; i++) {
    const c = tail.charCodeAt(i - 1);
    if (c === 96) ticks++;
    else if (c === 91) brackets++;
    else if (c === 93) brackets--;
    if ((c === 32 || c === 10) && /\p{L}/u.test(tail[i])) {
      anySpace = i;
      if (ticks % 2 === 0 && brackets <= 0) best = i;
    }
  }
  const at = best > 0 ? best : tail.length > 4 * SOFT_TAIL ? anySpace : -1;
  // A line inside the piece that starts another block (list, quote, table, setext underline) would make
  // the piece more than a paragraph: leave such a tail whole.
  if (at <= 0 || INTERRUPTING_LINE.test(tail.slice(0, at))) return undefined;
  return { at, paragraph: true };
}

/** A tail or block that is one code fence: its info and code, and whether the fence is closed. */
function singleFence(src: string): { info: string; code: string; closed: boolean } | undefined {
  const nl = src.indexOf('\n');
  if (nl < 0) return undefined;
  const opener = fenceOpener(src.slice(0, nl));
  if (!opener) return undefined;
  for (let pos = nl + 1; pos < src.length; ) {
    const end = src.indexOf('\n', pos);
    const line = src.slice(pos, end < 0 ? src.length : end);
    if (end >= 0 && closesFence(line, opener)) {
      // Closed: it is a single fence only if nothing but blank lines follows.
      return src.slice(end + 1).trim() ? undefined : { info: opener.info, code: src.slice(nl + 1, pos), closed: true };
    }
    if (end < 0) break;
    pos = end + 1;
  }
  return { info: opener.info, code: src.slice(nl + 1), closed: false };
}

/** Code longer than this is shown in pieces of about this size, as plain text (see CodeBlockView). */
export const CODE_PIECE = 4096;

/** Cuts `code` from `from` into pieces of about CODE_PIECE characters at line ends; returns the pieces and where they end. */
function codePieces(code: string, from: number): { pieces: string[]; end: number } {
  const pieces: string[] = [];
  let end = from;
  while (code.length - end > CODE_PIECE) {
    const nl = code.lastIndexOf('\n', end + CODE_PIECE);
    const cut = nl >= end ? nl + 1 : end + CODE_PIECE;
    pieces.push(code.slice(end, cut));
    end = cut;
  }
  return { pieces, end };
}

export type MarkdownBlock =
  /** Sanitised HTML. `inline`: a piece of a paragraph cut for speed, joined with its neighbours. */
  | { kind: 'html'; key: number; html: string; inline: boolean }
  /** A long code block as plain text pieces (rendered as text nodes: nothing to sanitise). */
  | { kind: 'code'; key: number; lang: string; pieces: readonly string[] };

export interface MarkdownView {
  blocks: readonly MarkdownBlock[];
  /** The live block, re-rendered as text is appended. */
  tail: MarkdownBlock | undefined;
  /** The time budget ran out before all finished blocks were rendered: update again next frame. */
  pending: boolean;
}

/** Code streamed in an open fence: the pieces already cut stay the same strings across updates. */
interface OpenCode {
  /** Offset of the fence's first line in the text. */
  at: number;
  key: number;
  pieces: string[];
  /** How much of the code the pieces cover. */
  end: number;
}

/**
 * Streaming Markdown: finished blocks are rendered once and cached; only the live tail (the block still
 * being written, at most ~SOFT_TAIL characters of a paragraph or list) is re-rendered when text is
 * appended. A code fence streams as plain text pieces (only the last one changes) and is highlighted
 * once closed if it is small. Rendering finished blocks stops at `deadline` (performance.now() time), so
 * a burst of many blocks is spread over frames. Non-append changes re-render from scratch.
 */
export class IncrementalMarkdown {
  private stable = '';
  private blocks: MarkdownBlock[] = [];
  private seq = 0;
  /** A paragraph was cut at a space and its next piece continues it inline. */
  private continuing = false;
  private openCode: OpenCode | undefined;
  private tailSrc: string | undefined;
  private tailBlock: MarkdownBlock | undefined;
  /** Number of markdown-it renders done (tests check that appends stay incremental). */
  renders = 0;

  update(text: string, deadline = Infinity): MarkdownView {
    if (text.length < this.stable.length || !text.startsWith(this.stable)) {
      this.stable = '';
      this.blocks = [];
      this.continuing = false;
      this.openCode = undefined;
      this.tailSrc = undefined;
    }
    const added: MarkdownBlock[] = [];
    const outOfTime = () => added.length > 0 && performance.now() > deadline;
    let pending = false;
    search: for (;;) {
      let start = this.stable.length;
      const cuts = findCuts(text, start);
      for (let i = 0; i < cuts.length; i++) {
        if (outOfTime()) {
          pending = true;
          break search;
        }
        // Consecutive small blocks that arrived together go through markdown-it and DOMPurify in one
        // call (each call has a fixed cost); code fences and a paragraph's inline remainder stay alone.
        let end = cuts[i];
        if (!this.continuing && !startsWithFence(text, start)) {
          while (i + 1 < cuts.length && cuts[i + 1] - start <= SOFT_TAIL && !startsWithFence(text, cuts[i])) end = cuts[++i];
        }
        this.push(added, text.slice(start, end), false);
        start = end;
        this.stable = text.slice(0, start);
      }
      const tail = text.slice(start);
      const forced = tail.length > SOFT_TAIL ? forcedCut(tail) : undefined;
      if (!forced) break;
      if (outOfTime()) {
        pending = true;
        break;
      }
      this.push(added, tail.slice(0, forced.at), forced.paragraph);
      this.stable = text.slice(0, start + forced.at);
    }
    if (added.length) this.blocks = this.blocks.concat(added);
    if (pending) return { blocks: this.blocks, tail: undefined, pending };
    const tail = text.slice(this.stable.length);
    if (tail !== this.tailSrc) {
      this.tailSrc = tail;
      this.tailBlock = this.renderTail(tail);
    }
    return { blocks: this.blocks, tail: this.tailBlock, pending };
  }

  private renderTail(tail: string): MarkdownBlock | undefined {
    const fence = singleFence(tail);
    if (fence && !fence.closed) {
      const open = this.openFence(fence.code);
      const live = fence.code.slice(open.end);
      return { kind: 'code', key: open.key, lang: fenceLanguage(fence.info), pieces: live ? [...open.pieces, live] : open.pieces.slice() };
    }
    this.openCode = undefined;
    if (!tail.trim()) return undefined;
    this.renders++;
    const html = renderMarkdown(tail) + (this.continuing && /\s$/.test(tail) ? ' ' : '');
    return { kind: 'html', key: -1, html, inline: this.continuing };
  }

  /** The open fence at the start of the tail, its finished pieces extended to cover `code`. */
  private openFence(code: string): OpenCode {
    let open = this.openCode;
    if (!open || open.at !== this.stable.length || open.end > code.length) {
      open = this.openCode = { at: this.stable.length, key: this.seq++, pieces: [], end: 0 };
    }
    const more = codePieces(code, open.end);
    open.pieces.push(...more.pieces);
    open.end = more.end;
    return open;
  }

  /** Renders a finished piece; `splitsParagraph`: the piece ends inside a paragraph that goes on. */
  private push(out: MarkdownBlock[], src: string, splitsParagraph: boolean): void {
    const inline = this.continuing || splitsParagraph;
    this.continuing = splitsParagraph;
    if (!src.trim()) return;
    const fence = splitsParagraph ? undefined : singleFence(src);
    if (fence?.closed && fence.code.length > MAX_HIGHLIGHT) {
      // Too long to highlight: keep the streamed pieces (and the key, so nothing is re-mounted).
      const open = this.openCode?.at === this.stable.length ? this.openFence(fence.code) : undefined;
      const rest = codePieces(fence.code, open?.end ?? 0);
      const last = fence.code.slice(rest.end);
      const pieces = [...(open?.pieces ?? []), ...rest.pieces, ...(last ? [last] : [])];
      out.push({ kind: 'code', key: open?.key ?? this.seq++, lang: fenceLanguage(fence.info), pieces });
      this.openCode = undefined;
      return;
    }
    this.openCode = undefined;
    this.renders++;
    // A space the cut took from between two words is put back (markdown-it trims it from the piece).
    const html = renderMarkdown(src) + (inline && /\s$/.test(src) ? ' ' : '');
    out.push({ kind: 'html', key: this.seq++, html, inline });
  }
}
