import { useRef } from 'preact/hooks';
import { IncrementalMarkdown } from '../markdown';
import { memo } from './common';

const Block = memo(function Block({ html }: { html: string }) {
  return <div class="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * Sanitised, incrementally rendered Markdown. Clicks on links and code-block buttons are handled by
 * one delegated listener on the transcript (see Transcript.tsx), never by inline handlers.
 */
export function Markdown({ text }: { text: string }) {
  const inc = useRef<IncrementalMarkdown | null>(null);
  if (!inc.current) inc.current = new IncrementalMarkdown();
  const { blocks, tail } = inc.current.update(text);
  return (
    <div class="md">
      {blocks.map((b) => (
        <Block key={b.key} html={b.html} />
      ))}
      {tail && <Block key="tail" html={tail} />}
    </div>
  );
}
