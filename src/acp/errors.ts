// Typed errors, so the host can react to what happened (sign in, restart, tell the user)
// without parsing messages.
import type { AuthMethod } from './schema/agentResponses';

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  RequestCancelled: -32800,
  AuthRequired: -32000,
  ResourceNotFound: -32002,
} as const;

export class AcpError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The agent answered a request with a JSON-RPC error. */
export class AcpRequestError extends AcpError {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** -32000: the agent wants the user to sign in first (from session/new, load or prompt). */
export class AuthRequiredError extends AcpRequestError {
  constructor(method: string, message: string, data: unknown, readonly authMethods: AuthMethod[]) {
    super(method, ErrorCode.AuthRequired, message, data);
  }
}

/** -32002: the session (or other resource) does not exist on the agent. */
export class NotFoundError extends AcpRequestError {
  constructor(method: string, message: string, data?: unknown) {
    super(method, ErrorCode.ResourceNotFound, message, data);
  }
}

/** -32800: the agent confirms it cancelled the request. */
export class RequestCancelledError extends AcpRequestError {
  constructor(method: string, message: string, data?: unknown) {
    super(method, ErrorCode.RequestCancelled, message, data);
  }
}

/** We stopped waiting because the caller's AbortSignal fired. */
export class AbortedError extends AcpError {
  constructor(readonly method: string) {
    super(`${method} was cancelled`);
    this.name = 'AbortError';
  }
}

/** We stopped waiting because the caller's timeout elapsed. */
export class TimeoutError extends AcpError {
  constructor(readonly method: string, readonly timeoutMs: number) {
    super(`The agent did not answer ${method} within ${timeoutMs} ms`);
  }
}

/** The connection closed (agent exited, crashed, or we closed it) while waiting. */
export class ConnectionClosedError extends AcpError {
  constructor(message = 'The connection to the agent is closed', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The agent speaks a protocol version this client does not; the connection is closed. */
export class ProtocolVersionError extends AcpError {
  constructor(readonly agentVersion: number, readonly clientVersion: number) {
    super(
      `The agent speaks ACP protocol version ${agentVersion}, but Switchboard supports version ${clientVersion}. ` +
        'Update the agent or Switchboard so both speak the same version.',
    );
  }
}

/** The agent's result did not match the schema for that method. */
export class InvalidResponseError extends AcpError {
  constructor(readonly method: string, readonly issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
    super(`The agent sent an invalid result for ${method}: ${issues.map((i) => `${i.path.map(String).join('.') || '(root)'} ${i.message}`).join('; ')}`);
  }
}

/** The request needs an agent capability that the agent did not advertise. */
export class CapabilityNotSupportedError extends AcpError {
  constructor(readonly capability: string, readonly method: string) {
    super(`The agent does not support ${capability} (needed for ${method})`);
  }
}

/** A prompt holds content the agent said it cannot take (promptCapabilities). */
export class UnsupportedPromptContentError extends AcpError {
  constructor(readonly blockTypes: string[]) {
    super(`The agent cannot accept ${blockTypes.join(', ')} content in prompts; remove it and send again`);
  }
}
