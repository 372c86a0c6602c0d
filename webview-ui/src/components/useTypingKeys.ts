import { useRef } from 'preact/hooks';

/**
 * VS Code's webview forwards every keydown and keyup that reaches its window to the workbench (a postMessage and
 * a keybinding lookup per key, about a sixth of a keystroke's cost at 4x CPU slowdown). A printable key with no
 * modifier typed into the composer is text: no workbench keybinding applies to it, except as the second key of a
 * chord (Ctrl+K V), so the key right after a Ctrl, Alt or Meta combination is still forwarded. Shifted keys stay
 * forwarded too: without them the workbench would see Shift pressed alone (a `shift shift` keybinding).
 * Escape, Enter, Tab, arrows, F-keys and every combination reach the workbench as before.
 */
export class TypingKeys {
  /** The last keydown held Ctrl, Alt or Meta: the next key may finish a chord. */
  private chord = false;
  /** Keys whose keydown was kept here (by code): their keyup is kept too. */
  private readonly held = new Set<string>();

  keydown(e: KeyboardEvent): void {
    const plain = e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey && !e.isComposing;
    const keep = plain && !this.chord;
    this.chord = e.ctrlKey || e.altKey || e.metaKey;
    if (!keep) return;
    e.stopPropagation();
    this.held.add(e.code);
  }

  keyup(e: KeyboardEvent): void {
    if (this.held.delete(e.code)) e.stopPropagation();
  }
}

/** One `TypingKeys` for the component's life. */
export function useTypingKeys(): TypingKeys {
  const keys = useRef<TypingKeys | undefined>(undefined);
  keys.current ??= new TypingKeys();
  return keys.current;
}
