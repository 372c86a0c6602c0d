// Messages typed while the agent works: one queue per session, sent in order when the turn ends. The chat
// owns it (it shows in the session view); the backend only ever sees one prompt at a time per session.
import type { QueuedMessage } from '../shared/chatState';
import type { ComposerPrompt } from '../shared/messages';

export interface PromptQueueOptions {
  /** Sends a prompt; resolves when its turn ends. */
  send(sessionId: string, prompt: ComposerPrompt): Promise<void>;
  /** The session's turn is running (as the backend last reported it). */
  turnRunning(sessionId: string): boolean;
  cancel(sessionId: string): Promise<void>;
  /** The queue of this session changed (the session view shows it). */
  changed(sessionId: string): void;
  reportError(what: string, error: unknown): void;
}

export class PromptQueue {
  private readonly queues = new Map<string, QueuedMessage[]>();
  /** Sessions whose prompt was handed to the backend and has not ended yet. */
  private readonly inFlight = new Set<string>();
  private seq = 0;

  constructor(private readonly o: PromptQueueOptions) {}

  queued(sessionId: string): QueuedMessage[] {
    return this.queues.get(sessionId) ?? [];
  }

  private busy(sessionId: string): boolean {
    return this.inFlight.has(sessionId) || this.o.turnRunning(sessionId);
  }

  /** Sent now when the session is idle and nothing waits before it; else queued. */
  submit(sessionId: string, prompt: ComposerPrompt): void {
    if (!this.busy(sessionId) && this.queued(sessionId).length === 0) {
      this.dispatch(sessionId, prompt);
      return;
    }
    const q = this.queues.get(sessionId) ?? [];
    q.push({ id: `q${++this.seq}`, text: prompt.text, mentions: prompt.mentions, images: prompt.images });
    this.queues.set(sessionId, q);
    this.o.changed(sessionId);
    this.drain(sessionId);
  }

  edit(sessionId: string, queueId: string, text: string): void {
    const item = this.queued(sessionId).find((q) => q.id === queueId);
    if (!item) return;
    item.text = text;
    this.o.changed(sessionId);
  }

  remove(sessionId: string, queueId: string): void {
    const q = this.queued(sessionId);
    const i = q.findIndex((x) => x.id === queueId);
    if (i < 0) return;
    q.splice(i, 1);
    this.o.changed(sessionId);
  }

  /** Moves the message to the front; a running turn is cancelled so it goes right after. */
  async sendNow(sessionId: string, queueId: string): Promise<void> {
    const q = this.queued(sessionId);
    const i = q.findIndex((x) => x.id === queueId);
    if (i < 0) return;
    const [item] = q.splice(i, 1);
    q.unshift(item);
    this.o.changed(sessionId);
    if (this.busy(sessionId)) await this.o.cancel(sessionId);
    else this.drain(sessionId);
  }

  /** The backend reported the turn over: the next queued message goes. */
  drain(sessionId: string): void {
    if (this.busy(sessionId)) return;
    const next = this.queues.get(sessionId)?.shift();
    if (!next) return;
    this.o.changed(sessionId);
    this.dispatch(sessionId, { text: next.text, mentions: next.mentions, images: next.images });
  }

  closed(sessionId: string): void {
    this.queues.delete(sessionId);
    this.inFlight.delete(sessionId);
  }

  private dispatch(sessionId: string, prompt: ComposerPrompt): void {
    this.inFlight.add(sessionId);
    let turn: Promise<void>;
    try {
      turn = Promise.resolve(this.o.send(sessionId, prompt));
    } catch (e) {
      turn = Promise.reject(e);
    }
    turn
      .catch((e: unknown) => this.o.reportError('Sending the message failed', e))
      .finally(() => {
        this.inFlight.delete(sessionId);
        this.drain(sessionId);
      });
  }
}
