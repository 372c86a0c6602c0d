// Why a remote agent could not be reached or was lost, worded for the user (the chat shows the
// message as is). `kind` lets the host decide: retry a lost connection, ask for credentials again
// after a 401, never retry a refused insecure URL.
import { AcpError } from '../../errors';

export type RemoteErrorKind =
  /** Credentials would cross plain http/ws to a non-loopback host; nothing was sent. */
  | 'insecure'
  /** HTTP 401 or 403: the server refused the credentials. */
  | 'unauthorized'
  /** Nothing answered: refused, unknown host, unreachable network. */
  | 'unreachable'
  /** The server accepted the connection but did not answer in time. */
  | 'timeout'
  /** The server answered, but not as an ACP endpoint (404, 500, not a WebSocket, ...). */
  | 'rejected'
  /** An established connection ended without being asked to. */
  | 'lost';

export class RemoteConnectionError extends AcpError {
  constructor(
    readonly kind: RemoteErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const BROKEN_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/** An HTTP status the server answered the connection (or the WebSocket upgrade) with. */
export function errorForStatus(where: string, status: number, statusText: string, body: string): RemoteConnectionError {
  const said = body.trim() ? `: ${truncate(body.trim(), 200)}` : '';
  const what = `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  if (status === 401 || status === 403) {
    return new RemoteConnectionError(
      'unauthorized',
      `${where} refused the credentials (${what}${said}). Check the agent's "headers" in switchboard.agents; Reconnect asks for its secrets again.`,
      status,
    );
  }
  return new RemoteConnectionError('rejected', `${where} answered ${what}${said}; is this the URL of an ACP agent?`, status);
}

/**
 * A failure of fetch, ws or the SDK's HTTP stream, classified. `established`: the connection had
 * been working, so any failure means it was lost.
 */
export function classifyRemoteError(where: string, error: unknown, established: boolean): RemoteConnectionError {
  if (error instanceof RemoteConnectionError) return error;
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') {
    const body = (error as { body?: unknown }).body;
    return errorForStatus(where, status, '', typeof body === 'string' ? body : '');
  }
  const code = errorCode(error);
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  if (established) {
    const why = code && BROKEN_CODES.has(code) ? 'the connection broke off' : detail;
    return new RemoteConnectionError('lost', `Lost the connection to ${where} (${why}).`, undefined, { cause: error });
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return new RemoteConnectionError('timeout', `${where} did not answer in time (${code}).`, undefined, { cause: error });
  }
  if (code && NETWORK_CODES.has(code)) {
    return new RemoteConnectionError('unreachable', `${where} does not answer (${code}). Is the agent server running, and is the URL right?`, undefined, {
      cause: error,
    });
  }
  return new RemoteConnectionError('unreachable', `Could not connect to ${where}: ${detail}.`, undefined, { cause: error });
}

/** The system error code, also when fetch wraps it ("fetch failed" with a cause). */
function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.length > 0) return code;
  }
  return undefined;
}

/** A WebSocket close code, for people (RFC 6455 section 7.4.1). */
export function describeCloseCode(code: number, reason: string): string {
  const said = reason ? `: ${truncate(reason, 200)}` : '';
  if (code === 1006) return `the connection broke off${said}`;
  if (code === 1001) return `the server is going away${said}`;
  if (code === 1011) return `the server failed${said}`;
  if (code === 1009) return `a message was too large${said}`;
  return `WebSocket closed with code ${code}${said}`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
