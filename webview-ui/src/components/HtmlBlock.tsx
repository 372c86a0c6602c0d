// A Markdown block's sanitised HTML nodes in the DOM: moved in on the first mount, copied from the element
// that showed them on a later one, so a block is never parsed again to be shown.
import { useLayoutEffect, useRef } from 'preact/hooks';
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
export const HtmlBlock = memo(function HtmlBlock({ nodes, inline }: { nodes: DocumentFragment; inline: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) el.replaceChildren(contentFor(nodes, el));
  }, [nodes]);
  return <div ref={ref} class={inline ? 'md-block md-inline' : 'md-block'} />;
});
