/**
 * Text decoding and line windows for fs/read_text_file from disk. Pure Node (no `vscode`): unit-tested and
 * benchmarked in plain Node.
 *
 * Decoding follows VS Code's defaults: a BOM picks UTF-8 / UTF-16LE / UTF-16BE; without a BOM, zero bytes in
 * the first 512 bytes mean UTF-16 when they sit only on odd (LE) or even (BE) offsets, else a binary file,
 * which is refused; everything else is UTF-8 with U+FFFD for invalid bytes (what the editor shows).
 * `files.encoding` settings other than UTF-8 are not honoured on the disk path (the open-document path is).
 */
import { promises as fsp } from 'node:fs';
import { invalidParams } from '../../acp';

export type TextEncodingName = 'utf8' | 'utf8bom' | 'utf16le' | 'utf16be';

const SNIFF_BYTES = 512;

export function detectEncoding(head: Uint8Array): TextEncodingName | 'binary' {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8bom';
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  const n = Math.min(head.length, SNIFF_BYTES);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i++) {
    if (head[i] === 0) {
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  if (evenZeros + oddZeros === 0) return 'utf8';
  if (evenZeros === 0 && oddZeros > 0) return 'utf16le';
  if (oddZeros === 0 && evenZeros > 0) return 'utf16be';
  return 'binary';
}

function binaryError(path?: string): Error {
  return invalidParams(`Not a text file (binary content)${path ? `: ${path}` : ''}`, { reason: 'binary_file', path });
}

/** Decodes a whole file's bytes as VS Code would by default; throws -32602 for binary content. */
export function decodeText(bytes: Uint8Array, path?: string): string {
  const enc = detectEncoding(bytes.subarray(0, SNIFF_BYTES));
  switch (enc) {
    case 'binary':
      throw binaryError(path);
    case 'utf8':
      return new TextDecoder('utf-8').decode(bytes);
    case 'utf8bom':
      return new TextDecoder('utf-8').decode(bytes.subarray(3));
    case 'utf16le':
      return new TextDecoder('utf-16le').decode(hasBom(bytes, enc) ? bytes.subarray(2) : bytes);
    case 'utf16be':
      return new TextDecoder('utf-16be').decode(hasBom(bytes, enc) ? bytes.subarray(2) : bytes);
  }
}

function hasBom(b: Uint8Array, enc: 'utf16le' | 'utf16be'): boolean {
  return enc === 'utf16le' ? b[0] === 0xff && b[1] === 0xfe : b[0] === 0xfe && b[1] === 0xff;
}

export interface LineWindow {
  /** 1-based first line; undefined, null or < 1 mean line 1. */
  line?: number | null;
  /** Number of lines; undefined or null mean to the end. */
  limit?: number | null;
}

export function hasWindow(w: LineWindow): boolean {
  return (w.line ?? 1) > 1 || (w.limit !== undefined && w.limit !== null);
}

/** First line index (0-based) and end index (exclusive, Infinity = to the end) of a window. */
export function windowBounds(w: LineWindow): { start: number; end: number } {
  const start = Math.max(1, Math.floor(w.line ?? 1)) - 1;
  const end = w.limit === undefined || w.limit === null ? Infinity : start + Math.max(0, Math.floor(w.limit));
  return { start, end };
}

/** The window of a decoded string. Lines keep their terminators, so joining windows gives the text back. */
export function sliceLines(text: string, w: LineWindow): string {
  const { start, end } = windowBounds(w);
  if (end <= start) return '';
  let from = 0;
  for (let i = 0; i < start; i++) {
    const nl = text.indexOf('\n', from);
    if (nl < 0) return '';
    from = nl + 1;
  }
  let to = from;
  for (let i = start; i < end; i++) {
    const nl = text.indexOf('\n', to);
    if (nl < 0) return text.slice(from);
    to = nl + 1;
  }
  return text.slice(from, to);
}

const CHUNK = 256 * 1024;

/**
 * Reads only the lines of the window from disk, chunk by chunk, and stops once they are collected: a window
 * near the start of a 50 MB file reads a few hundred KB. UTF-16 files (rare) are read whole and sliced.
 * Errors from `fs` (ENOENT, EISDIR) propagate for the caller to map.
 */
export async function readLineWindow(path: string, w: LineWindow): Promise<string> {
  const { start, end } = windowBounds(w);
  const fh = await fsp.open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let { bytesRead } = await fh.read(buf, 0, CHUNK, 0);
    const enc = detectEncoding(buf.subarray(0, Math.min(bytesRead, SNIFF_BYTES)));
    if (enc === 'binary') throw binaryError(path);
    if (enc === 'utf16le' || enc === 'utf16be') return sliceLines(decodeText(await fh.readFile()), w);
    if (end <= start) return '';
    const parts: Buffer[] = [];
    let line = 0; // index of the line the scan is in
    let filePos = 0;
    let skip = enc === 'utf8bom' ? 3 : 0;
    while (bytesRead > 0) {
      const chunk = buf.subarray(skip, bytesRead);
      filePos += bytesRead;
      skip = 0;
      let pos = 0;
      let takeFrom = line >= start ? 0 : -1;
      while (pos < chunk.length && line < end) {
        const nl = chunk.indexOf(0x0a, pos);
        if (nl < 0) break;
        line++;
        pos = nl + 1;
        if (line === start) takeFrom = pos;
        if (line === end && takeFrom >= 0) {
          parts.push(Buffer.from(chunk.subarray(takeFrom, pos)));
          takeFrom = -1;
        }
      }
      if (takeFrom >= 0 && takeFrom < chunk.length) parts.push(Buffer.from(chunk.subarray(takeFrom)));
      if (line >= end) break;
      ({ bytesRead } = await fh.read(buf, 0, CHUNK, filePos));
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(parts));
  } finally {
    await fh.close();
  }
}
