// What the caret in the composer is completing: `/cmd` at the start of the message, or `@query` after
// whitespace.

export interface Trigger {
  kind: 'command' | 'mention';
  /** Start offset of the trigger character. */
  start: number;
  query: string;
}

export function findTrigger(text: string, caret: number): Trigger | undefined {
  const before = text.slice(0, caret);
  const cmd = /^\/(\S*)$/.exec(before);
  if (cmd) return { kind: 'command', start: 0, query: cmd[1] };
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (m) return { kind: 'mention', start: before.length - m[2].length - 1, query: m[2] };
  return undefined;
}
