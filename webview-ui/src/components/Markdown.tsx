import { useEffect, useRef, useState } from 'preact/hooks';
import { BlockPages, type PageItem } from '../blockPages';
import { CODE_ACTIONS, IncrementalMarkdown, type MarkdownBlock } from '../markdown';
import { textStreams } from '../textStreams';
import { frameMarkup, markdownDeadline, renderNextFrame } from '../renderBudget';
import { memo } from './memo';

const HtmlBlock = memo(function HtmlBlock({ html, inline }: { html: string; inline: boolean }) {
  return <div class={inline ? 'md-block md-inline' : 'md-block'} dangerouslySetInnerHTML={{ __html: html }} />;
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
            <button key={a.action} type="button" class="icon-button" data-code-action={a.action} aria-label={a.label} title={a.title}>
              <span class={`codicon codicon-${a.icon}`} aria-hidden="true" />
            </button>
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
  return block.kind === 'html' ? <HtmlBlock html={block.html} inline={block.inline} /> : <CodeBlockView lang={block.lang} pieces={block.pieces} />;
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
 * frame's render budget runs out, the rest is rendered on the next frames.
 */
export function Markdown({ text, stream }: { text: string; stream?: string }) {
  const inc = useRef<IncrementalMarkdown | null>(null);
  const layout = useRef<BlockPages | null>(null);
  const shown = useRef<{ epoch: number; length: number } | undefined>(undefined);
  if (!inc.current) inc.current = new IncrementalMarkdown();
  if (!layout.current) layout.current = new BlockPages();
  const [, setFrame] = useState(0);
  // A streamed block: parse only the text the host's ops appended since the block last rendered. The
  // length check catches any other change (an item replaced): then the whole text is read once.
  const appended = stream ? textStreams.take(stream) : undefined;
  const before = shown.current;
  const chunks =
    before !== undefined && before.epoch === textStreams.epoch && before.length + (appended?.length ?? 0) === text.length ? (appended?.chunks ?? []) : undefined;
  shown.current = { epoch: textStreams.epoch, length: text.length };
  const deadline = markdownDeadline();
  const { blocks, tail, pending } = chunks ? inc.current.append(chunks, text, deadline, frameMarkup) : inc.current.update(text, deadline, frameMarkup);
  useEffect(() => {
    if (pending) return renderNextFrame(() => setFrame((n) => n + 1));
  });
  return (
    <div class="md">
      {/* The tail is placed in the page it will have as a block: a code block keeps its element from
          streaming (tail) to finished (blocks). */}
      {layout.current.pages(blocks, tail).map((page) => (
        <PageView key={page.key} items={page.items} />
      ))}
    </div>
  );
}
