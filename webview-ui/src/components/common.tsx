import { Component, createContext, type ComponentChildren, type FunctionComponent, type VNode } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { ChatStore } from '../store';

export const StoreContext = createContext<ChatStore | undefined>(undefined);

export function useStore(): ChatStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('ChatStore missing');
  return s;
}

/** Re-render the calling component whenever the store notifies (once per frame at most). */
export function useStoreVersion(): number {
  const store = useStore();
  const [, setTick] = useState(0);
  useEffect(() => store.subscribe(() => setTick((x) => x + 1)), [store]);
  return store.version;
}

function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}

/** Skip re-rendering when props are shallow-equal (keyed transcript items re-render only when they change). */
export function memo<P extends object>(Inner: FunctionComponent<P>): FunctionComponent<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return !shallowEqual(this.props, next);
    }
    override render(): VNode {
      return <Inner {...this.props} />;
    }
  }
  return Memo as unknown as FunctionComponent<P>;
}

export function Icon({ name, spin, label }: { name: string; spin?: boolean; label?: string }) {
  return label ? (
    <span class={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} role="img" aria-label={label} />
  ) : (
    <span class={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} aria-hidden="true" />
  );
}

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

export function basename(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] || p;
}

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k`;
  return String(n);
}
