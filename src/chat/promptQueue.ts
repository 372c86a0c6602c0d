// Messages typed while the agent works: one queue per session, sent in order when the turn ends; and the
// messages waiting for an agent's sign-in, sent once the user has signed in. The chat owns them (the queue
// shows in the session view); the backend only ever sees one prompt at a time per session.
import { AuthRequiredError } from '../acp/errors';
import type { QueuedMessage } from '../shared/chatState';
import type { ComposerPrompt } from '../shared/messages';
import type { PromptOutcome } from './chatBackend';

/**
 * A message that stopped for its agent's sign-in. `tabId` undefined: its session could not open yet.
 * `shown`: it is in the transcript already.
 */
export interface SignInWait {
  agentId: string;
  tabId?: string;
  prompt: ComposerPrompt;
  shown: boolean;
}

export interface PromptQueueOptions {
  /** Sends a prompt; resolves when its turn ends, saying whether it stopped for sign-in. */
  send(tabId: string, prompt: ComposerPrompt, shownAlready: boolean): Promise<PromptOutcome>;
  /** Opens a session of the agent for a message whose session waited for sign-in; resolves with its tab. */
  open(agentId: string): Promise<string>;
  /** The agent of an open tab. */
  agentOf(tabId: string): string | undefined;
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
  /** Messages waiting for their agent's sign-in, oldest first. */
  private signInWaits: SignInWait[] = [];
  /** Sign-ins per agent so far: a turn that stopped for sign-in while the user signed in goes again at once. */
  private readonly signIns = new Map<string, number>();
  private seq = 0;

  constructor(private readonly chat: PromptQueueOptions) {}

  queued(sessionId: string): QueuedMessage[] {
    return this.queues.get(sessionId) ?? [];
  }

  private busy(sessionId: string): boolean {
    return this.inFlight.has(sessionId) || this.chat.turnRunning(sessionId);
  }

  /** Sent now when the session is idle and nothing waits before it; else queued. */
  submit(sessionId: string, prompt: ComposerPrompt): void {
    if (!this.busy(sessionId) && this.queued(sessionId).length === 0) {
      this.dispatch(sessionId, prompt, false);
      return;
    }
    const q = this.queues.get(sessionId) ?? [];
    q.push({ id: `q${++this.seq}`, text: prompt.text, mentions: prompt.mentions, images: prompt.images });
    this.queues.set(sessionId, q);
    this.chat.changed(sessionId);
    this.drain(sessionId);
  }

  edit(sessionId: string, queueId: string, text: string): void {
    const item = this.queued(sessionId).find((q) => q.id === queueId);
    if (!item) return;
    item.text = text;
    this.chat.changed(sessionId);
  }

  remove(sessionId: string, queueId: string): void {
    const q = this.queued(sessionId);
    const i = q.findIndex((x) => x.id === queueId);
    if (i < 0) return;
    q.splice(i, 1);
    this.chat.changed(sessionId);
  }

  /** Moves the message to the front; a running turn is cancelled so it goes right after. */
  async sendNow(sessionId: string, queueId: string): Promise<void> {
    const q = this.queued(sessionId);
    const i = q.findIndex((x) => x.id === queueId);
    if (i < 0) return;
    const [item] = q.splice(i, 1);
    q.unshift(item);
    this.chat.changed(sessionId);
    if (this.busy(sessionId)) await this.chat.cancel(sessionId);
    else this.drain(sessionId);
  }

  /** The backend reported the turn over: the next queued message goes. */
  drain(sessionId: string): void {
    if (this.busy(sessionId)) return;
    const next = this.queues.get(sessionId)?.shift();
    if (!next) return;
    this.chat.changed(sessionId);
    this.dispatch(sessionId, { text: next.text, mentions: next.mentions, images: next.images }, false);
  }

  /** A message for a new session of the agent, which waits for sign-in before it can open. */
  waitForSignIn(agentId: string, prompt: ComposerPrompt): void {
    this.signInWaits.push({ agentId, prompt, shown: false });
  }

  /** The user signed in to the agent: its waiting messages go, each in its session (opened now if need be). */
  signedIn(agentId: string): void {
    this.signIns.set(agentId, (this.signIns.get(agentId) ?? 0) + 1);
    const ready = this.signInWaits.filter((w) => w.agentId === agentId);
    this.signInWaits = this.signInWaits.filter((w) => w.agentId !== agentId);
    for (const wait of ready) {
      // A turn running there is a newer message's (submit dropped this one's wait): only the latest is sent.
      if (wait.tabId !== undefined) {
        if (!this.busy(wait.tabId)) this.dispatch(wait.tabId, wait.prompt, wait.shown);
      } else this.openFor(agentId, wait.prompt);
    }
  }

  private openFor(agentId: string, prompt: ComposerPrompt): void {
    this.chat.open(agentId).then(
      (tabId) => this.submit(tabId, prompt),
      (e: unknown) => {
        if (e instanceof AuthRequiredError) this.waitForSignIn(agentId, prompt);
        this.chat.reportError('Opening the session failed', e);
      },
    );
  }

  closed(sessionId: string): void {
    this.queues.delete(sessionId);
    this.inFlight.delete(sessionId);
    this.signInWaits = this.signInWaits.filter((w) => w.tabId !== sessionId);
  }

  /** A message of the session that waited for sign-in is dropped: only the latest is sent. */
  private dispatch(sessionId: string, prompt: ComposerPrompt, shownAlready: boolean): void {
    this.signInWaits = this.signInWaits.filter((w) => w.tabId !== sessionId);
    this.inFlight.add(sessionId);
    const agentId = this.chat.agentOf(sessionId);
    const signInsBefore = agentId === undefined ? 0 : (this.signIns.get(agentId) ?? 0);
    let signedInMeanwhile = false;
    let turn: Promise<PromptOutcome>;
    try {
      turn = Promise.resolve(this.chat.send(sessionId, prompt, shownAlready));
    } catch (e) {
      turn = Promise.reject(e);
    }
    turn
      .then((outcome) => {
        if (!outcome.signInRequired || agentId === undefined) return;
        this.signInWaits.push({ agentId, tabId: sessionId, prompt, shown: outcome.shown });
        signedInMeanwhile = (this.signIns.get(agentId) ?? 0) !== signInsBefore;
      })
      .catch((e: unknown) => this.chat.reportError('Sending the message failed', e))
      .finally(() => {
        this.inFlight.delete(sessionId);
        if (signedInMeanwhile && agentId !== undefined) this.signedIn(agentId);
        else this.drain(sessionId);
      });
  }
}
