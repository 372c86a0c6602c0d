// Why a message was not sent: one mention could not be read, or the message is over its budget. Pure, so
// the budget's unit test and the host share it. The session shows `message` and `detail` once, in the chat.

export class MentionError extends Error {
  constructor(
    message: string,
    /** The way forward, shown under the message. */
    readonly detail: string,
  ) {
    super(message);
    this.name = 'MentionError';
  }
}

/** 1.2 MB, 340 KB, 12 bytes: sizes as the chat says them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
