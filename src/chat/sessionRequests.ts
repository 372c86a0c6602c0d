// The one owner of "a new session the user asked for has not opened yet": the webview's `newSession`
// requests, by request id. A message typed meanwhile names its request and waits here for that session
// (through a sign-in too), so it never goes to the tab still shown. `current` is the request the composer
// sends to; the webview holds a copy of it (written when it asks, cleared by `newSessionSettled` for that
// id or by choosing a tab, both of which the host sees in the same order).
import { AuthRequiredError } from '../acp/errors';
import type { StartingSession } from '../shared/chatState';

export interface SessionRequestsOptions {
  /** Starts a session with the agent (the default when undefined); `afterSignIn` gets the session opened once signed in. */
  open(agentId: string | undefined, afterSignIn: (sessionId: string) => void): Promise<string>;
  /** The request ended: its session opened (`sessionId`) or it failed. */
  settled(requestId: string, sessionId: string | undefined): void;
}

interface SessionRequest {
  agentId?: string;
  /** The session it opened; undefined once it failed. */
  session: Promise<string | undefined>;
}

/** Requests remembered for late messages; older ones are forgotten (a message naming one starts a session). */
const MAX_REQUESTS = 20;

export class SessionRequests {
  private readonly requests = new Map<string, SessionRequest>();
  private currentId: string | undefined;

  constructor(private readonly o: SessionRequestsOptions) {}

  /** The request the next message goes to, if it has not opened its session yet. */
  get current(): StartingSession | undefined {
    const requestId = this.currentId;
    const request = requestId === undefined ? undefined : this.requests.get(requestId);
    if (!request || requestId === undefined) return undefined;
    return request.agentId === undefined ? { requestId } : { requestId, agentId: request.agentId };
  }

  /**
   * Starts the session and makes the request current. Resolves with its id; rejects as opening it did
   * (AuthRequiredError: it waits for sign-in, and settles when the session opens after it).
   */
  start(agentId: string | undefined, requestId: string): Promise<string> {
    let resolve!: (sessionId: string | undefined) => void;
    const request: SessionRequest = { session: new Promise((r) => (resolve = r)), ...(agentId !== undefined ? { agentId } : {}) };
    let done = false;
    const settle = (sessionId: string | undefined) => {
      if (done) return;
      done = true;
      resolve(sessionId);
      if (this.currentId === requestId) this.currentId = undefined;
      this.o.settled(requestId, sessionId);
    };
    this.requests.delete(requestId);
    this.requests.set(requestId, request);
    if (this.requests.size > MAX_REQUESTS) this.requests.delete(this.requests.keys().next().value as string);
    this.currentId = requestId;
    let opening: Promise<string>;
    try {
      opening = this.o.open(agentId, settle);
    } catch (e) {
      opening = Promise.reject(e);
    }
    return opening.then(
      (sessionId) => {
        settle(sessionId);
        return sessionId;
      },
      (e: unknown) => {
        if (!(e instanceof AuthRequiredError)) settle(undefined);
        throw e;
      },
    );
  }

  /** The session a request opened (waiting for it); undefined when it failed or is not known. */
  session(requestId: string): Promise<string | undefined> {
    return this.requests.get(requestId)?.session ?? Promise.resolve(undefined);
  }

  /** The user chose a tab: messages go there now; requests still open their sessions. */
  dropCurrent(): void {
    this.currentId = undefined;
  }
}
