// The host's end of the chat webview: the ready handshake, a bounded outbox while the view is not ready,
// and one batched postMessage per frame. What goes into a batch is the controller's (`collect`).
import type { HostToWebviewMessage } from '../../shared/messages';

/** Where messages go: `webview.postMessage` (resolves false when the webview is not live). */
export interface WebviewPort {
  postMessage(message: HostToWebviewMessage): PromiseLike<boolean> | boolean | void;
}

export interface WebviewChannelOptions {
  /**
   * Batches are posted at most once per this many ms (default 16, one frame). The first change after a
   * quiet period goes out at once (next macrotask, so a synchronous burst is still one batch).
   */
  flushDelayMs?: number;
  /** Max messages kept while the view is not ready (oldest dropped; state is resent on ready anyway). */
  maxOutbox?: number;
  /** Everything that changed since the last flush, as messages. */
  collect(): HostToWebviewMessage[];
  warn(message: string): void;
}

export class WebviewChannel {
  private port: WebviewPort | undefined;
  private ready = false;
  private readonly outbox: HostToWebviewMessage[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFlushAt = -Infinity;
  private readonly flushDelayMs: number;
  private readonly maxOutbox: number;

  constructor(private readonly options: WebviewChannelOptions) {
    this.flushDelayMs = options.flushDelayMs ?? 16;
    this.maxOutbox = options.maxOutbox ?? 200;
  }

  /** A webview was resolved; it will post `ready` when its script runs. */
  attach(port: WebviewPort): void {
    this.port = port;
    this.ready = false;
  }

  detach(): void {
    this.port = undefined;
    this.ready = false;
  }

  /** Without retainContextWhenHidden a hidden webview is torn down: nothing is sent until it is ready again. */
  setVisible(visible: boolean): void {
    if (!visible) this.ready = false;
  }

  get isReady(): boolean {
    return this.ready && this.port !== undefined;
  }

  /** A webview is attached, though perhaps not ready (still starting, hidden, or a delivery to it failed). */
  get isAttached(): boolean {
    return this.port !== undefined;
  }

  /** The webview is ready: `init` goes first, then what was queued while it was not. */
  open(init: HostToWebviewMessage): void {
    this.cancelFlush();
    this.ready = true;
    this.deliver(init);
    for (const m of this.outbox.splice(0)) this.deliver(m);
  }

  /** A message that must arrive (a notice, a toast): sent now, or kept for after the next handshake. */
  post(message: HostToWebviewMessage): void {
    if (this.isReady) {
      this.deliver(message);
      return;
    }
    this.outbox.push(message);
    if (this.outbox.length > this.maxOutbox) this.outbox.splice(0, this.outbox.length - this.maxOutbox);
  }

  /** A reply that only matters to the live view (dropped otherwise). */
  reply(message: HostToWebviewMessage): void {
    if (this.isReady) this.deliver(message);
  }

  /** Something changed: a batch goes out within a frame. A throttle, not a debounce: a steady stream is never held back. */
  schedule(): void {
    if (!this.isReady || this.flushTimer !== undefined) return;
    const wait = Math.max(0, this.lastFlushAt + this.flushDelayMs - performance.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, wait);
  }

  flush(): void {
    this.cancelFlush();
    if (!this.isReady) return;
    this.lastFlushAt = performance.now();
    const out = this.options.collect();
    if (out.length === 1) this.deliver(out[0]);
    else if (out.length > 1) this.deliver({ type: 'batch', messages: out });
  }

  private cancelFlush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  private deliver(message: HostToWebviewMessage): void {
    const port = this.port;
    if (!port) return;
    const lost = (why: unknown) => {
      // Not delivered: the webview is gone, hidden or still starting; it gets a snapshot on its next `ready`
      // (a webview without its `init` keeps asking).
      const reason = why === false ? 'postMessage resolved false' : String(why);
      if (message.type === 'init') this.options.warn(`chat: the webview did not take its init (${reason}); it gets one on its next ready`);
      else if (this.port === port && this.ready) this.options.warn(`chat: the "${message.type}" message did not reach the webview (${reason}); nothing more is sent until it speaks again`);
      if (this.port === port) this.ready = false;
    };
    try {
      const r = port.postMessage(message);
      if (r && typeof (r as PromiseLike<boolean>).then === 'function') (r as PromiseLike<boolean>).then((ok) => ok === false && lost(false), lost);
    } catch (e) {
      lost(e);
      if (message.type !== 'init') this.options.warn(`chat: postMessage failed: ${String(e)}`);
    }
  }

  dispose(): void {
    this.cancelFlush();
    this.detach();
  }
}
