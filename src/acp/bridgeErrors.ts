/**
 * Errors a bridge throws when the agent must see a JSON-RPC error. The connection answers a BridgeError
 * with its code, message and data; anything else thrown by a handler becomes -32603.
 * No `vscode` import: shared by the pure helpers and their unit tests.
 */
export const BridgeErrorCode = {
  /** Bad input from the agent: relative path, directory, unknown or released terminal id, denied access. */
  InvalidParams: -32602,
  /** ACP's "resource not found" (a file that does not exist). */
  ResourceNotFound: -32002,
  Internal: -32603,
} as const;

export type BridgeErrorCodeValue = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

/** Machine-readable reason in `data.reason`, so the agent (and our tests) can tell cases apart. */
export type BridgeErrorReason =
  | 'relative_path'
  | 'is_directory'
  | 'not_found'
  | 'binary_file'
  | 'access_denied'
  | 'unknown_session'
  | 'unknown_terminal'
  | 'terminal_limit'
  | 'bad_cwd'
  | 'bad_command'
  | 'unsupported_mode'
  | 'write_failed'
  | 'read_failed';

export interface BridgeErrorData {
  reason: BridgeErrorReason;
  path?: string;
  terminalId?: string;
  [key: string]: unknown;
}

export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCodeValue,
    message: string,
    readonly data: BridgeErrorData,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

export function isBridgeError(e: unknown): e is BridgeError {
  return e instanceof BridgeError;
}

export const invalidParams = (message: string, data: BridgeErrorData): BridgeError =>
  new BridgeError(BridgeErrorCode.InvalidParams, message, data);

export const resourceNotFound = (message: string, data: BridgeErrorData): BridgeError =>
  new BridgeError(BridgeErrorCode.ResourceNotFound, message, data);

export const internalError = (message: string, data: BridgeErrorData): BridgeError =>
  new BridgeError(BridgeErrorCode.Internal, message, data);

/** The message of an unknown thrown value, for wrapping in an internal error. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
