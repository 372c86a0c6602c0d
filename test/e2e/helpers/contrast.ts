// Text contrast as a reader sees it, measured inside the chat webview: each visible text's colour against
// what is drawn behind it (its own and its ancestors' backgrounds, translucent layers blended), as the
// WCAG contrast ratio. Passed whole to frame.evaluate, so everything it uses is defined inside it.

export interface ContrastFinding {
  /** The element's tag and classes, and the start of its text. */
  where: string;
  ratio: number;
  /** 4.5 for normal text, 3 for large text (WCAG AA). */
  needed: number;
}

export interface ContrastAudit {
  /** A highlighted code block's plain text (punctuation). */
  codeBlock: number;
  /** Inline code in Markdown (a probe element added for the measurement). */
  inlineCode: number;
  /** Visible texts below what they need, lowest first. */
  failing: ContrastFinding[];
  /** How many texts were measured. */
  measured: number;
}

export function auditContrast(): ContrastAudit {
  // Computed colours are rgb()/rgba(), or color(srgb r g b / a) with 0-1 channels (color-mix results).
  const rgba = (c: string): number[] => {
    const scale = c.startsWith('color(srgb') ? 255 : 1;
    const [r = 0, g = 0, b = 0, a = 1] = (c.replace(/^color\(srgb/, '').match(/[\d.]+(e-?\d+)?/g) ?? []).map(Number);
    return [r * scale, g * scale, b * scale, a];
  };
  const behind = (el: Element): number[] => {
    const layers: number[][] = [];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers
      .reverse()
      .reduce((under, [r, g, b, a]) => [r * a + under[0] * (1 - a), g * a + under[1] * (1 - a), b * a + under[2] * (1 - a)], [255, 255, 255]);
  };
  const luminance = (rgb: number[]): number =>
    rgb
      .slice(0, 3)
      .map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratioOf = (el: Element): number => {
    const style = getComputedStyle(el);
    const fg = rgba(style.color);
    const bg = behind(el);
    // Translucent text is blended over its background too.
    const text = [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
    const [l1, l2] = [luminance(text), luminance(bg)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };

  const code = document.querySelector('.code-block pre code');
  const probe = document.createElement('div');
  probe.className = 'md';
  probe.innerHTML = '<p><code>inline</code></p>';
  document.body.append(probe);
  const inlineCode = ratioOf(probe.querySelector('code')!);
  probe.remove();

  const failing: ContrastFinding[] = [];
  let measured = 0;
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const ownText = Array.from(el.childNodes)
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent ?? '')
      .join('')
      .trim();
    if (!ownText || el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible' || Number(style.opacity) === 0) continue;
    // Disabled controls are exempt (WCAG 1.4.3).
    if (el.closest(':disabled, [aria-disabled="true"]')) continue;
    measured++;
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    const ratio = ratioOf(el);
    if (ratio < needed) {
      const classes = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      failing.push({ where: `${el.tagName.toLowerCase()}${classes} "${ownText.slice(0, 30)}"`, ratio: Math.round(ratio * 100) / 100, needed });
    }
  }
  failing.sort((a, b) => a.ratio - b.ratio);
  return { codeBlock: code ? ratioOf(code) : 0, inlineCode, failing, measured };
}
