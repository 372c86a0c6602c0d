import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { Icon } from './Icon';
import { useStore } from './storeHooks';

/** A toggle section (button with aria-expanded + region) whose state is kept in the store's UI state. */
export function Collapsible(props: {
  id: string;
  label: ComponentChildren;
  /** Accessible name of the toggle, when `label` is not plain text. */
  ariaLabel?: string;
  defaultOpen?: boolean;
  className?: string;
  /** A new value opens the section, as a click would (find revealing a match inside it). */
  openRequest?: object;
  /** Open, and not closable, while true (something inside waits for the user). */
  forceOpen?: boolean;
  children: () => ComponentChildren;
}) {
  const store = useStore();
  const [open, setOpen] = useState(() => store.ui.isExpanded(props.id, props.defaultOpen ?? false));
  const [handled, setHandled] = useState<object | undefined>(undefined);
  const requested = props.openRequest !== undefined && props.openRequest !== handled;
  // Shown in the same render as the request, so whoever asked finds the body in the DOM at once.
  const shown = open || requested || props.forceOpen === true;
  useLayoutEffect(() => {
    if (!requested) return;
    setHandled(props.openRequest);
    if (!open) {
      setOpen(true);
      store.ui.setExpanded(props.id, true);
    }
  });
  const bodyId = `c-${props.id}`;
  return (
    <div class={`collapsible ${props.className ?? ''}${shown ? ' open' : ''}`}>
      <button
        type="button"
        class="collapsible-toggle"
        aria-expanded={shown}
        aria-controls={bodyId}
        aria-label={props.ariaLabel}
        disabled={props.forceOpen === true}
        title={props.forceOpen ? 'Stays open while it waits for you' : undefined}
        onClick={() => {
          setOpen(!open);
          store.ui.setExpanded(props.id, !open);
        }}
      >
        <Icon name={shown ? 'chevron-down' : 'chevron-right'} />
        {props.label}
      </button>
      {shown && (
        <div class="collapsible-body" id={bodyId}>
          {props.children()}
        </div>
      )}
    </div>
  );
}
