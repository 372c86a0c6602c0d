// Opens the transport to a remote agent: checks the URL and the credentials policy first (nothing
// is sent to a refused URL), then WebSocket for ws/wss and Streamable HTTP for http/https.
// Give the result to `new AcpClientConnection(t.input, t.output, { framing: 'message' })`.
import { DEFAULT_MAX_MESSAGE_BYTES } from '../frameDecoder';
import type { MessageTransportOptions, RemoteTransport } from './messageTransport';
import { assertCredentialsAllowed, isCredentialHeader, parseRemoteUrl } from './remoteEndpoint';

export interface RemoteTransportOptions extends MessageTransportOptions {
  url: string;
  /** Sent with every request (HTTP) or with the upgrade (WebSocket). */
  headers: Readonly<Record<string, string>>;
  /** Headers whose values came from secret storage: credentials whatever their names. */
  secretHeaders?: readonly string[];
  /** WebSocket: how long the upgrade may take (HTTP waits for the initialize answer instead). */
  connectTimeoutMs?: number;
  maxMessageBytes?: number;
  pingIntervalMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;

export async function connectRemoteTransport(options: RemoteTransportOptions): Promise<RemoteTransport> {
  const endpoint = parseRemoteUrl(options.url);
  const secret = new Set((options.secretHeaders ?? []).map((n) => n.toLowerCase()));
  const credentials = Object.keys(options.headers).filter((name) => secret.has(name.toLowerCase()) || isCredentialHeader(name));
  assertCredentialsAllowed(endpoint, credentials);
  const headers = { ...options.headers };
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  // Loaded when a remote agent first connects (ws and the SDK's HTTP client are not needed before).
  if (endpoint.protocol === 'http') return new (await import('./httpTransport')).HttpTransport(endpoint, { ...options, headers, maxMessageBytes });
  return (await import('./webSocketTransport')).WebSocketTransport.connect(endpoint, {
    ...options,
    headers,
    maxMessageBytes,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  });
}
