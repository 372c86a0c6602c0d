// One page of a Markdown view: its runs and blocks, each an HtmlBlock or a CodeBlockView.
import type { PageItem } from '../blockPages';
import type { MarkdownBlock } from '../markdown';
import { CodeBlockView } from './CodeBlockView';
import { HtmlBlock } from './HtmlBlock';
import { memo } from './memo';

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
export const PageView = memo(function PageView({ items }: { items: readonly PageItem[] }) {
  return (
    <div class="md-page">
      {items.map((item) => (
        <RunOrBlock key={item.kind === 'run' ? `run${item.key}` : item.key} item={item} />
      ))}
    </div>
  );
});
