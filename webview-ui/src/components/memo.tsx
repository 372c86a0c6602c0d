import { Component, type FunctionComponent, type VNode } from 'preact';

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
