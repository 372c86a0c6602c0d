/*
 * Zed's settings.json (and many hand-edited acp.json files) are JSONC: // and block comments and
 * trailing commas. This turns JSONC into JSON without shifting any character offsets (comments and
 * stray commas become spaces, newlines are kept), so JSON.parse errors still point at the right line.
 */

export type JsoncParseResult = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJsonc(text: string): JsoncParseResult {
  const json = jsoncToJson(text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(raw);
    if (!position) return { ok: false, message: raw.length > 200 ? `${raw.slice(0, 200)}…` : raw };
    const { line, column } = lineAndColumn(json, Number(position[1]));
    return { ok: false, message: `${raw.replace(/ in JSON at position \d+.*$/, '')} at line ${line}, column ${column}` };
  }
}

/** Comments and trailing commas replaced by spaces; everything else (including strings) untouched. */
export function jsoncToJson(text: string): string {
  const out = text.split('');
  let lastSignificant = -1; // index in `out` of the last non-whitespace, non-comment character
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      const end = endOfString(text, i);
      lastSignificant = end - 1;
      i = end;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') out[i++] = ' ';
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close === -1 ? text.length : close + 2;
      for (; i < end; i++) if (text[i] !== '\n' && text[i] !== '\r') out[i] = ' ';
      continue;
    }
    if ((ch === '}' || ch === ']') && lastSignificant >= 0 && out[lastSignificant] === ',') {
      out[lastSignificant] = ' ';
    }
    if (!/\s/.test(ch)) lastSignificant = i;
    i++;
  }
  return out.join('');
}

/** Index just past the closing quote of the string starting at `start` (or the text's end). */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return text.length;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
