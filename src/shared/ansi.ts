// ANSI escape handling for terminal output shown in the chat (the webview shows plain text).

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-char escapes, and C1 CSI (0x9b).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// An escape sequence cut off at the end of a chunk.
// eslint-disable-next-line no-control-regex
const PARTIAL = /(?:\u001b(?:\[[0-?]*[ -/]*|\][^\u0007\u001b]*|[PX^_][^\u001b]*)?|\u009b[0-?]*[ -/]*)$/;

export function stripAnsi(text: string): string {
  // Also drop carriage returns that are not part of CRLF (progress bars) and other C0 controls but \n \t.
  return text
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/** Streaming variant: returns the printable text and the incomplete trailing escape to prepend next time. */
export function stripAnsiStreaming(carry: string, chunk: string): { text: string; carry: string } {
  const s = carry + chunk;
  const m = PARTIAL.exec(s);
  const cut = m && m[0].length > 0 ? s.length - m[0].length : s.length;
  return { text: stripAnsi(s.slice(0, cut)), carry: s.slice(cut) };
}
