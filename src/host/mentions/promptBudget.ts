// One size budget per prompt: the message's text, every mention embedded in it (a resource's text, or a
// mention sent as text) and every image sent (its base64 data, as it goes) count; a link costs only its URI.
// Pure (no `vscode`): unit-tested in plain Node.
import { MentionError, formatBytes } from './mentionError';

/** The setting that sets the budget, named in the message when a prompt is over it. */
export const BUDGET_SETTING = 'switchboard.maxPromptBytes';

/** Used when the setting is missing or not a positive number. */
export const DEFAULT_BUDGET_BYTES = 1024 * 1024;

export interface BudgetEntry {
  /** How the message names it: `@big.log` as the user typed it, or `the image shot.png`. */
  shown: string;
  bytes: number;
  /** A workspace file that could go as a link instead (the agent then reads it itself). */
  linkable: boolean;
  image?: boolean;
}

export function budgetFrom(setting: unknown): number {
  return typeof setting === 'number' && Number.isFinite(setting) && setting > 0 ? Math.floor(setting) : DEFAULT_BUDGET_BYTES;
}

export class PromptBudget {
  private readonly entries: BudgetEntry[] = [];
  private used = 0;

  constructor(readonly maxBytes: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** Counts text that goes out whatever the mentions are (the typed message, a link's URI). */
  addText(text: string): void {
    this.used += Buffer.byteLength(text, 'utf8');
  }

  /** Counts one mention's embedded text. */
  add(label: string, text: string, linkable: boolean): void {
    const bytes = Buffer.byteLength(text, 'utf8');
    this.used += bytes;
    this.entries.push({ shown: `@${label}`, bytes, linkable });
  }

  /** Counts one image as it is sent: its base64 data. */
  addImage(name: string | undefined, base64: string): void {
    const bytes = Buffer.byteLength(base64, 'utf8');
    this.used += bytes;
    this.entries.push({ shown: name ? `the image ${name}` : 'an image', bytes, linkable: false, image: true });
  }

  /** Throws a MentionError that names the largest mentions and the way forward when the prompt is over budget. */
  check(): void {
    if (this.used <= this.maxBytes) return;
    const largest = [...this.entries].sort((a, b) => b.bytes - a.bytes).slice(0, 3);
    const names = largest.map((e) => `${e.shown} (${formatBytes(e.bytes)})`).join(', ');
    const links = largest.filter((e) => e.linkable).map((e) => e.shown);
    const ways = [
      links.length ? `mention a part of ${links.join(', ')} (select lines, then @ the selection) or type its path so the agent opens the file itself as a link` : '',
      largest.some((e) => e.image) ? 'remove an image or a mention' : 'remove a mention',
      `raise ${BUDGET_SETTING}`,
    ].filter(Boolean);
    throw new MentionError(
      `Not sent: this message comes to ${formatBytes(this.used)}, over the ${formatBytes(this.maxBytes)} one message may carry${names ? `. Largest: ${names}` : ''}.`,
      `Nothing was sent. To send it, ${ways.join(', or ')}.`,
    );
  }
}
