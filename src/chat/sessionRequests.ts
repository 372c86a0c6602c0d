// The one owner of "a new session the user asked for has not opened yet": the webview's `newSession`
// requests, by request id. A message typed meanwhile names its request and waits here for that session
// (through a sign-in too: a request whose agent needs it opens again once the user signed in), so it never
// goes to the tab still shown. `current` is the request the composer
// sends to; the webview holds a copy of it (written when it asks, cleared by `newSessionSettled` for that
// id or by choosing a tab, both of which the host sees in the same order).
import { AuthRequiredError } from '../acp/errors';
import type { StartingSession } from '../shared/chatState';

export interface SessionRequestsOptions {
  /** Starts a session with the agent; rejects with AuthRequiredError when the agent needs sign-in first. */
  open(agentId: string): Promise<string>;
  /** The agent a request without one opens. */
  defaultAgentId(): string | undefined;
  /** The request ended: its session opened (`sessionId`) or it failed. */
  settled(requestId: string, sessionId: string | undefined): void;
}

interface SessionRequest {
  /** As the webview asked (undefined: the default agent). */
  agentId?: string;
  /** The session it opened; undefined once it failed. */
  session: Promise<string | undefined>;
  /** Set while its agent waits for sign-in: `signedIn` opens it again. */
  openAgain?: () => void;
}

/** Requests remembered for late messages; older ones are forgotten (a message naming one starts a session). */
const MAX_REQUESTS = 20;

export class SessionRequests {
  private readonly requests = new Map<string, SessionRequest>();
  private currentId: string | undefined;

  constructor(private readonly chat: SessionRequestsOptions) {}

  /** The request the next message goes to, if it has not opened its session yet. */
  get current(): StartingSession | undefined {
    const requestId = this.currentId;
    const request = requestId === undefined ? undefined : this.requests.get(requestId);
    if (!request || requestId === undefined) return undefined;
    return request.agentId === undefined ? { requestId } : { requestId, agentId: request.agentId };
  }

  /**
   * Starts the session and makes the request current (`current: false`: a request of the host's, which the
   * composer does not send to). Resolves with its id; rejects as opening it did (AuthRequiredError: it
   * waits for sign-in, and settles when the session opens after it).
   */
  start(agentId: string | undefined, requestId: string, current = true): Promise<string> {
    let resolve!: (sessionId: string | undefined) => void;
    const request: SessionRequest = { session: new Promise((r) => (resolve = r)), ...(agentId !== undefined ? { agentId } : {}) };
    let done = false;
    const settle = (sessionId: string | undefined) => {
      if (done) return;
      done = true;
      resolve(sessionId);
      if (this.currentId === requestId) this.currentId = undefined;
      this.chat.settled(requestId, sessionId);
    };
    this.requests.delete(requestId);
    this.requests.set(requestId, request);
    if (this.requests.size > MAX_REQUESTS) this.requests.delete(this.requests.keys().next().value as string);
    if (current) this.currentId = requestId;
    const open = (): Promise<string> => {
      delete request.openAgain;
      const agent = agentId ?? this.chat.defaultAgentId();
      const opening = agent === undefined ? Promise.reject(new Error('No agent is configured. Add one to switchboard.agents.')) : this.chat.open(agent);
      return opening.then(
        (sessionId) => {
          settle(sessionId);
          return sessionId;
        },
        (e: unknown) => {
          if (e instanceof AuthRequiredError) request.openAgain = () => void open().catch(() => undefined);
          else settle(undefined);
          throw e;
        },
      );
    };
    return open();
  }

  /** The user signed in to the agent: its requests that waited for it open their sessions. */
  signedIn(agentId: string): void {
    for (const request of this.requests.values()) {
      if (request.openAgain && (request.agentId ?? this.chat.defaultAgentId()) === agentId) request.openAgain();
    }
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
