import { httpGet, readCapped, resolveHttpUrl, type FetchLike } from './http';

/*
 * Agent icons come from the registry (usually SVG). They are only ever shown as images (an <img> in the
 * chat, an icon in a quick pick), where browsers run no script; on top of that an SVG with anything active
 * or external (script, event handlers, foreignObject, external references, entities) is not shown at all.
 */

export const MAX_ICON_BYTES = 64 * 1024;

/** A reference other than a fragment (`#id`) or an embedded raster image. */
const EXTERNAL = String.raw`(?:"(?!#|data:image\/(?:png|jpeg|gif|webp)[;,])|'(?!#|data:image\/(?:png|jpeg|gif|webp)[;,])|(?!["'#]|data:image\/))`;
const ACTIVE_SVG = [
  /<\s*script/i,
  /<\s*foreignObject/i,
  /\son[a-z]+\s*=/i,
  /javascript\s*:/i,
  /<!\s*(ENTITY|DOCTYPE)/i,
  /@import/i,
  new RegExp(String.raw`url\(\s*` + EXTERNAL, 'i'),
  new RegExp(String.raw`\b(?:href|xlink:href)\s*=\s*` + EXTERNAL, 'i'),
];

/** A data: URI for the icon bytes, or undefined when they are not a plain SVG or a PNG. */
export function iconDataUri(bytes: Buffer): string | undefined {
  if (bytes.length === 0 || bytes.length > MAX_ICON_BYTES) return undefined;
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return `data:image/png;base64,${bytes.toString('base64')}`;
  }
  const svg = bytes.toString('utf8');
  if (!/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(svg) || !/<\/svg>\s*$/i.test(svg)) return undefined;
  if (ACTIVE_SVG.some((pattern) => pattern.test(svg))) return undefined;
  return `data:image/svg+xml;base64,${bytes.toString('base64')}`;
}

/** Fetches an agent's icon; undefined (never an error) when it is missing, too large or not inert. */
export async function fetchIcon(fetchFn: FetchLike, icon: string | undefined, registryUrl: string, signal?: AbortSignal): Promise<string | undefined> {
  if (!icon) return undefined;
  try {
    const url = resolveHttpUrl(icon, registryUrl, 'The icon');
    const response = await httpGet(fetchFn, url, 'the icon', signal, 15_000);
    return iconDataUri(await readCapped(response, MAX_ICON_BYTES, 'the icon', signal));
  } catch {
    return undefined;
  }
}
