// A text block's Markdown in the chat: sanitised, rendered as it streams, its rendering kept while it is
// out of the DOM.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { markdownCache, type MarkdownState } from '../markdownCache';
import { textStreams } from '../textStreams';
import { frameMarkup, markdownDeadline, renderNextFrame } from '../renderBudget';
import { PageView } from './PageView';

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
