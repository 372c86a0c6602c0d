import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PageItem } from '../blockPages';
import type { MarkdownBlock } from '../markdown';
import { CODE_ACTIONS } from '../markdownRender';
import { markdownCache, type MarkdownState } from '../markdownCache';
import { textStreams } from '../textStreams';
import { frameMarkup, markdownDeadline, renderNextFrame } from '../renderBudget';
import { memo } from './memo';

/** The element that showed a block's sanitised nodes last: a later mount copies them from there. */
const shownIn = new WeakMap<DocumentFragment, Element>();

/**
 * What to put in `el` for a block's sanitised nodes: on the block's first mount the nodes themselves (moved
 * in, not copied); on a later one (scrolled away and back, or shown twice) a copy of the element that had
 * them. A block is never parsed or sanitised again to be shown.
 */
function contentFor(nodes: DocumentFragment, el: Element): Node {
  const before = shownIn.get(nodes);
  shownIn.set(nodes, el);
  if (!before) return nodes;
  const copy = el.ownerDocument.createDocumentFragment();
  for (const child of before.childNodes) copy.appendChild(child.cloneNode(true));
  return copy;
}

/** A block's sanitised nodes, put in the element when it mounts or the nodes change. */
const HtmlBlock = memo(function HtmlBlock({ nodes, inline }: { nodes: DocumentFragment; inline: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) el.replaceChildren(contentFor(nodes, el));
  }, [nodes]);
  return <div ref={ref} class={inline ? 'md-block md-inline' : 'md-block'} />;
});

/**
 * One piece of a long code block, a block of whole lines of its own: appending a piece neither rebuilds
 * nor re-lays out the others, and pieces out of view are not laid out at all (content-visibility; the
 * size they take meanwhile is their line count until they were shown once).
 */
const CodePiece = memo(function CodePiece({ text }: { text: string }) {
  return (
    <span class="code-piece" style={{ containIntrinsicSize: `auto ${lineCount(text)}lh` }}>
      {text}
    </span>
  );
});

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A long (or still streaming) code block as plain text pieces; same markup and buttons as markdown-it's. */
const CodeBlockView = memo(function CodeBlockView({ lang, pieces }: { lang: string; pieces: readonly string[] }) {
  return (
    <div class="md-block">
      <div class="code-block" data-lang={lang}>
        <div class="code-toolbar">
          <span class="code-lang">{lang}</span>
          {CODE_ACTIONS.map((a) => (
            <button key={a.action} type="button" class={`icon-button codicon codicon-${a.icon}`} data-code-action={a.action} aria-label={a.label} title={a.title} />
          ))}
        </div>
        <pre>
          <code class={lang ? `hljs language-${lang}` : 'hljs'}>
            {pieces.map((p, i) => (
              <CodePiece key={i} text={p} />
            ))}
          </code>
        </pre>
      </div>
    </div>
  );
});

function Block({ block }: { block: MarkdownBlock }) {
  return block.kind === 'html' ? <HtmlBlock nodes={block.nodes} inline={block.inline} /> : <CodeBlockView lang={block.lang} pieces={block.pieces} />;
}

const RunOrBlock = memo(function RunOrBlock({ item }: { item: PageItem }) {
  if (item.kind !== 'run') return <Block block={item} />;
  return (
    <div class={item.starts ? 'md-run md-run-start' : 'md-run'}>
      {item.pieces.map((b) => (
        <Block key={b.key} block={b} />
      ))}
    </div>
  );
});

/** A page of a message's items (blockPages.ts); a page that no longer changes is not diffed again. */
const PageView = memo(function PageView({ items }: { items: readonly PageItem[] }) {
  return (
    <div class="md-page">
      {items.map((item) => (
        <RunOrBlock key={item.kind === 'run' ? `run${item.key}` : item.key} item={item} />
      ))}
    </div>
  );
});

/**
 * Sanitised, incrementally rendered Markdown. Clicks on links and code-block buttons are handled by
 * one delegated listener on the transcript (see Transcript.tsx), never by inline handlers. When the
 * frame's render budget runs out, the rest is rendered on the next frames. `stream` names the block: the
 * host's appends to it arrive under that key, and its rendering is kept (markdownCache) while it is
 * out of the DOM.
 */
export function Markdown({ text, stream }: { text: string; stream?: string }) {
  const state = useRef<MarkdownState | null>(null);
  if (!state.current) state.current = markdownCache.take(stream, text);
  const { inc, layout } = state.current;
  // A layout effect: its cleanup is registered even for an item unmounted before the next paint.
  useLayoutEffect(() => {
    const mounted = state.current;
    return () => {
      if (stream !== undefined && mounted) markdownCache.put(stream, mounted);
    };
  }, []);
  const [, setFrame] = useState(0);
  // A streamed block: parse only the text the host's ops appended since the block last rendered. The
  // length check catches any other change (an item replaced): then the whole text is read once.
  const appended = stream ? textStreams.take(stream) : undefined;
  const before = state.current.shown;
  const chunks =
    before !== undefined && before.epoch === textStreams.epoch && before.length + (appended?.length ?? 0) === text.length ? (appended?.chunks ?? []) : undefined;
  state.current.shown = { epoch: textStreams.epoch, length: text.length };
  state.current.text = text;
  const deadline = markdownDeadline();
  const { blocks, tail, pending } = chunks ? inc.append(chunks, text, deadline, frameMarkup) : inc.update(text, deadline, frameMarkup);
  useEffect(() => {
    if (pending) return renderNextFrame(() => setFrame((n) => n + 1));
  });
  return (
    <div class="md">
      {/* The tail is placed in the page it will have as a block: a code block keeps its element from
          streaming (tail) to finished (blocks). */}
      {layout.pages(blocks, tail).map((page) => (
        <PageView key={page.key} items={page.items} />
      ))}
    </div>
  );
}
