// The agent's JSON-RPC errors as typed errors the host can act on. Auth required (-32000) carries the
// sign-in methods to offer: those in the error's data when the agent sent some, else initialize's.
import type { ResponseError } from 'vscode-jsonrpc/node';
import { AcpRequestError, AuthRequiredError, ErrorCode, NotFoundError, RequestCancelledError } from '../errors';
import { AuthMethodsSchema, type AuthMethod } from '../schema/agentResponses';
import { isRecord } from '../schema/lenient';

export function agentErrorFor(method: string, error: ResponseError<unknown>, initializeAuthMethods: AuthMethod[]): Error {
  switch (error.code) {
    case ErrorCode.AuthRequired:
      return new AuthRequiredError(method, error.message, error.data, authMethodsFrom(error.data, initializeAuthMethods));
    case ErrorCode.ResourceNotFound:
      return new NotFoundError(method, error.message, error.data);
    case ErrorCode.RequestCancelled:
      return new RequestCancelledError(method, error.message, error.data);
    default:
      return new AcpRequestError(method, error.code, error.message, error.data);
  }
}

function authMethodsFrom(data: unknown, fallback: AuthMethod[]): AuthMethod[] {
  if (isRecord(data) && Array.isArray(data.authMethods)) {
    const fromError = AuthMethodsSchema.parse(data.authMethods);
    if (fromError.length > 0) return fromError;
  }
  return fallback;
}

/** Closing or deleting a session the agent no longer has is done, not an error. */
export async function ignoringNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}
