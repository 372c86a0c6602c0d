// Shape checks for JSON-RPC 2.0 envelopes, before anything is handed to vscode-jsonrpc:
// garbage must be logged and skipped here, never reach its dispatcher.

export interface NotificationEnvelope {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export type EnvelopeKind = 'request' | 'notification' | 'response';

/**
 * Classifies a parsed JSON value. Returns undefined for anything that is not a
 * usable JSON-RPC message (arrays/batches, primitives, bad ids, missing result/error).
 * A response with a malformed `error` is repaired into a -32603 so the waiting request
 * still settles instead of hanging.
 */
export function classifyEnvelope(value: unknown): EnvelopeKind | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const m = value as Record<string, unknown>;
  const id = m.id;
  if (typeof m.method === 'string') {
    if (id === undefined) return 'notification';
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? 'request' : undefined;
  }
  if (m.method !== undefined) return undefined;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) || id === null)) return undefined;
  if (m.error !== undefined) {
    const error = m.error as Record<string, unknown> | null;
    if (typeof error !== 'object' || error === null || typeof error.code !== 'number' || typeof error.message !== 'string') {
      m.error = { code: -32603, message: 'The agent sent a malformed error object', data: m.error };
    }
    delete m.result;
    return 'response';
  }
  if ('result' in m) return 'response';
  return undefined;
}
