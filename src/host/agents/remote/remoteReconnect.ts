// A remote agent's reconnecting after a dropped connection: the retries with backoff and what the chat
// says meanwhile. Apart from remoteAgent.ts because every AgentRuntime holds one from its creation, while
// the remote launch loads only when a remote agent starts.
import { RemoteConnectionError } from '../../../acp';
import { ReconnectBackoff } from '../../../agents';

export interface RemoteReconnectOptions {
  backoff?: ConstructorParameters<typeof ReconnectBackoff>[0];
  /** What the chat says meanwhile (the agent shows as crashed with this message). */
  report(message: string): void;
  /** Try to connect again. */
  retry(): void;
}

/**
 * Between a dropped connection and the next working one: failed attempts are retried with backoff until
 * the connection is back, the user reconnects, or the attempts run out.
 */
export class RemoteReconnect {
  private readonly backoff: ReconnectBackoff;
  private timer: NodeJS.Timeout | undefined;
  private active = false;
  private disposed = false;

  constructor(private readonly o: RemoteReconnectOptions) {
    this.backoff = new ReconnectBackoff(o.backoff);
  }

  dropped(error: Error): void {
    this.active = true;
    this.backoff.reset();
    this.schedule(error);
  }

  /** A start failed: retried while reconnecting, unless the server refused the credentials or the URL. */
  failed(error: unknown, message: string): void {
    if (!this.active) return;
    if (isRetryable(error)) this.schedule(error instanceof Error ? error : new Error(message));
    else this.active = false;
  }

  /** Connected, or the user asked for a fresh start: the attempts start from the beginning next time. */
  reset(): void {
    this.cancel();
    this.backoff.reset();
    this.active = false;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  private schedule(error: Error): void {
    const next = this.disposed ? undefined : this.backoff.next();
    if (!next) {
      this.active = false;
      this.o.report(`${error.message} Switchboard stopped trying to reconnect; use Reconnect to try again.`);
      return;
    }
    const seconds = Math.round(next.delayMs / 100) / 10;
    this.o.report(`${error.message} Reconnecting in ${seconds} s (attempt ${next.attempt} of ${this.backoff.maxAttempts})…`);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.o.retry();
    }, next.delayMs);
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof RemoteConnectionError ? ['unreachable', 'timeout', 'lost'].includes(error.kind) : true;
}
