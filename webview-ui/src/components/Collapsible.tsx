import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
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
  children: () => ComponentChildren;
}) {
  const store = useStore();
  const [open, setOpen] = useState(() => store.ui.isExpanded(props.id, props.defaultOpen ?? false));
  const bodyId = `c-${props.id}`;
  return (
    <div class={`collapsible ${props.className ?? ''}${open ? ' open' : ''}`}>
      <button
        type="button"
        class="collapsible-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        aria-label={props.ariaLabel}
        onClick={() => {
          setOpen(!open);
          store.ui.setExpanded(props.id, !open);
        }}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        {props.label}
      </button>
      {open && (
        <div class="collapsible-body" id={bodyId}>
          {props.children()}
        </div>
      )}
    </div>
  );
}
