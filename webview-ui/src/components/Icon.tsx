/** A codicon; with `label` it is an image of that name, else hidden from screen readers. */
export function Icon({ name, spin, label }: { name: string; spin?: boolean; label?: string }) {
  return label ? (
    <span class={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} role="img" aria-label={label} />
  ) : (
    <span class={`codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`} aria-hidden="true" />
  );
}
