// Agent Markdown -> sanitised DOM nodes, incrementally.
// Agent output is untrusted: markdown-it with raw HTML disabled and a link allow-list (http, https, mailto,
// relative), then DOMPurify with a tag/attribute allow-list. Links never navigate the webview: clicks are
// delegated to the host (openLink), which opens only http(s)/mailto through VS Code's confirmation.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlight } from './highlight';
import { codePieces, CutScanner, forcedCut, SOFT_TAIL, type FenceSpan } from './markdownBlocks';

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
const MAX_HIGHLIGHT = 20_000;

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

export type MarkdownBlock =
  /**
   * Sanitised nodes, built once: the block's first mount moves them in, a later one copies them. `cost`: their
   * markup's cost (markupCost). `inline`: a piece of a paragraph cut for speed, joined with its neighbours;
   * `startsParagraph`: the first piece of such a paragraph.
   */
  | { kind: 'html'; key: number; nodes: DocumentFragment; cost: number; inline: boolean; startsParagraph?: boolean }
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
  lang: string;
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
 *
 * The message itself is never read whole once streaming: `append` takes the new chunks, and only the
 * unfinished text (`work`) is kept — reading a long message string each frame makes V8 copy it (a fresh
 * string of the message's size per frame, and major GCs).
 */
export class IncrementalMarkdown {
  /** The text of the last update, by reference only (reading it would copy it). */
  private seen = '';
  private length = 0;
  /** The text from offset `base` on. base <= stable, except inside a fence known to be long. */
  private work = '';
  private base = 0;
  /** Where the finished blocks end. */
  private stable = 0;
  private scanner = new CutScanner();
  private blocks: MarkdownBlock[] = [];
  private seq = 0;
  /** A paragraph was cut at a space and its next piece continues it inline. */
  private continuing = false;
  private openCode: OpenCode | undefined;
  private tailBlock: MarkdownBlock | undefined;
  /** The text length and stable end the tail block was built for. */
  private tailLength = -1;
  private tailStable = -1;
  /** Number of markdown-it renders done (tests check that appends stay incremental). */
  renders = 0;

  /** Complete lines the cut scan has looked at since the last start over. */
  get scannedLines(): number {
    return this.scanner.linesScanned;
  }

  /** Characters the cut scan has searched for line ends since the last start over. */
  get searchedChars(): number {
    return this.scanner.charsSearched;
  }

  /** Characters of the text held (the unfinished part): bounded while a message streams. */
  get heldChars(): number {
    return this.work.length;
  }

  /** The view of `text`; an append to the last text is rendered incrementally (reads the text once). */
  update(text: string, deadline = Infinity, markup?: MarkupBudget): MarkdownView {
    if (text === this.seen) return this.render(deadline, markup);
    if (text.length >= this.length && text.startsWith(this.seen)) return this.append([text.slice(this.length)], text, deadline, markup);
    this.reset();
    return this.append([text], text, deadline, markup);
  }

  /** The view after `chunks` were appended to the last text, giving `text` (used by reference only). */
  append(chunks: readonly string[], text: string, deadline = Infinity, markup?: MarkupBudget): MarkdownView {
    let added = 0;
    for (const c of chunks) added += c.length;
    if (this.length + added !== text.length) {
      this.reset();
      chunks = [text];
      added = text.length;
    }
    if (added > 0) {
      this.work += chunks.length === 1 ? chunks[0] : chunks.join('');
      this.length += added;
    }
    this.seen = text;
    return this.render(deadline, markup);
  }

  private reset(): void {
    this.seen = '';
    this.length = 0;
    this.work = '';
    this.base = 0;
    this.stable = 0;
    this.scanner = new CutScanner();
    this.blocks = [];
    this.continuing = false;
    this.openCode = undefined;
    this.tailBlock = undefined;
    this.tailLength = -1;
    this.tailStable = -1;
  }

  private render(deadline: number, markup: MarkupBudget | undefined): MarkdownView {
    const added: MarkdownBlock[] = [];
    const outOfTime = () => (added.length > 0 || markup?.started() === true) && (performance.now() > deadline || markup?.exhausted() === true);
    let pending = false;
    search: for (;;) {
      let start = this.stable;
      const cuts = this.scanner.cuts(this.work, start, this.base);
      for (let i = 0; i < cuts.length; i++) {
        if (outOfTime()) {
          pending = true;
          break search;
        }
        // Consecutive small blocks that arrived together go through markdown-it and DOMPurify in one
        // call (each call has a fixed cost); code fences and a paragraph's inline remainder stay alone.
        let end = cuts[i];
        if (!this.continuing && !this.startsWithFence(start)) {
          while (i + 1 < cuts.length && cuts[i + 1] - start <= SOFT_TAIL && !this.startsWithFence(cuts[i])) end = cuts[++i];
        }
        const markupAdded = this.push(added, start, end, false);
        markup?.spend(markupAdded);
        start = end;
        this.setStable(start);
      }
      if (start < this.base || this.scanner.openFence()?.at === start) break; // a fence is never cut
      if (this.length - start <= SOFT_TAIL) break;
      // Checked before looking for a cut, which reads the tail: a render that waits costs nothing.
      if (outOfTime()) {
        pending = true;
        break;
      }
      const forced = forcedCut(this.work.slice(start - this.base));
      if (!forced) break;
      const markupAdded = this.push(added, start, start + forced.at, forced.paragraph);
      markup?.spend(markupAdded);
      this.setStable(start + forced.at);
    }
    if (added.length) this.blocks = this.blocks.concat(added);
    if (pending) return { blocks: this.blocks, tail: undefined, pending };
    if (this.tailLength !== this.length || this.tailStable !== this.stable) {
      // Out of budget: a tail that only grew shows as it was; one the new blocks overtook waits.
      if (outOfTime()) return { blocks: this.blocks, tail: this.tailStable === this.stable ? this.tailBlock : undefined, pending: true };
      this.tailLength = this.length;
      this.tailStable = this.stable;
      this.tailBlock = this.renderTail();
      if (this.tailBlock?.kind === 'html') markup?.spend(this.tailBlock.cost);
    }
    return { blocks: this.blocks, tail: this.tailBlock, pending };
  }

  private setStable(at: number): void {
    this.stable = at;
    this.dropBefore(at);
  }

  /** Forgets the text before `at` (never what the scanner still needs). */
  private dropBefore(at: number): void {
    const to = Math.min(at, this.scanner.lineStart());
    if (to <= this.base) return;
    this.work = this.work.slice(to - this.base);
    this.base = to;
  }

  /** Text before `base` is only ever the start of a long fence. */
  private startsWithFence(at: number): boolean {
    return at < this.base || this.scanner.fenceAt(at) !== undefined;
  }

  /** The fence at `at` if it is closed, too long to highlight, and all of the block [at, end). */
  private longClosedFence(at: number, end: number): FenceSpan | undefined {
    const span = this.scanner.fenceAt(at);
    if (span?.closeAt === undefined || span.end === undefined || span.end > end) return undefined;
    if (span.closeAt - span.codeAt <= MAX_HIGHLIGHT) return undefined;
    return this.work.slice(span.end - this.base, end - this.base).trim() ? undefined : span;
  }

  private renderTail(): MarkdownBlock | undefined {
    const open = this.scanner.openFence();
    if (open?.at === this.stable) {
      const block = this.fencePieces(open, this.length);
      // Past the highlighting limit a top-level fence stays pieces: the text they hold is not needed.
      if (open.topLevel && this.openCode!.end > MAX_HIGHLIGHT) this.dropBefore(open.codeAt + this.openCode!.end);
      return block;
    }
    // A long top-level fence whose text was dropped has closed; a line after it is still growing.
    const long = this.base > this.stable ? this.scanner.fenceAt(this.stable) : this.longClosedFence(this.stable, this.length);
    if (long) return this.fencePieces(long, long.closeAt!);
    const tail = this.work.slice(this.stable - this.base);
    if (!tail.trim()) return undefined;
    this.renders++;
    const { nodes, cost } = renderMarkdownNodes(tail, this.continuing && /\s$/.test(tail));
    return { kind: 'html', key: -1, nodes, cost, inline: this.continuing };
  }

  /**
   * The fence `span` as plain code pieces up to `codeEnd` (its closing line, or the end of the text while
   * it is open). The pieces and the key stay the same from streaming to finished: nothing is re-mounted.
   */
  private fencePieces(span: FenceSpan, codeEnd: number): MarkdownBlock {
    let open = this.openCode;
    if (open?.at !== span.at) open = this.openCode = { at: span.at, key: this.seq++, lang: fenceLanguage(span.info), pieces: [], end: 0 };
    const rest = this.work.slice(span.codeAt + open.end - this.base, codeEnd - this.base);
    const more = codePieces(rest);
    open.pieces.push(...more.pieces);
    open.end += more.end;
    const last = rest.slice(more.end);
    return { kind: 'code', key: open.key, lang: open.lang, pieces: last ? [...open.pieces, last] : open.pieces.slice() };
  }

  /**
   * Renders the finished piece [start, end) into `out`; returns the cost of the markup it added
   * (markupCost). `splitsParagraph`: the piece ends inside a paragraph that goes on.
   */
  private push(out: MarkdownBlock[], start: number, end: number, splitsParagraph: boolean): number {
    const inline = this.continuing || splitsParagraph;
    const startsParagraph = splitsParagraph && !this.continuing;
    this.continuing = splitsParagraph;
    const long = this.longClosedFence(start, end);
    if (long) {
      out.push(this.fencePieces(long, long.closeAt!));
      this.openCode = undefined;
      return long.closeAt! - long.codeAt;
    }
    const src = this.work.slice(start - this.base, end - this.base);
    if (!src.trim()) return 0;
    this.openCode = undefined;
    this.renders++;
    // A space the cut took from between two words is put back (markdown-it trims it from the piece).
    const { nodes, cost } = renderMarkdownNodes(src, inline && /\s$/.test(src));
    out.push({ kind: 'html', key: this.seq++, nodes, cost, inline, ...(startsParagraph ? { startsParagraph } : {}) });
    return cost;
  }
}
