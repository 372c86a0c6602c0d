// How a remote agent (a `url` entry) starts and ends: the URL and credentials policy checked before any
// secret is asked for, `${secret}` header values from SecretStorage, the transport and the ACP connection
// over it; a dropped connection is reported like a crash and retried with backoff (remoteReconnect.ts).
// Loaded when a remote agent starts (agentRuntime.ts), not with the services.
import {
  assertCredentialsAllowed,
  connectRemoteTransport,
  isCredentialHeader,
  parseRemoteUrl,
  RemoteConnectionError,
  type AcpClientConnection,
  type Logger,
  type RemoteTransport,
} from '../../../acp';
import type { RemoteAgentEndpoint } from '../../../agents';
import type { AgentSecrets } from '../../auth/agentSecrets';
import { windowAuthUi, type AuthUi } from '../../auth/authFlow';
import { forgetSecretHeaders, headersNeedingSecrets, resolveSecretHeaders } from '../../auth/secretHeaders';
import type { AgentLaunch } from '../agentLaunch';
import type { RemoteReconnect } from './remoteReconnect';

export interface RemoteAgentOptions {
  /** Where a remote agent's `${secret}` header values are kept; without it such an agent cannot connect. */
  secrets?: AgentSecrets;
  /** Asks for those values (replaceable in tests). */
  secretUi?(): AuthUi;
}

/** How long a remote agent may take to answer initialize (a local one gets longer: it may be installing). */
const REMOTE_INITIALIZE_TIMEOUT_MS = 30_000;

/**
 * Checks the URL and the credentials policy (before asking for any secret), fills in the secret headers,
 * connects, initializes. The agent's `fs/*` and `terminal/*` requests run here, through the same handlers
 * and confinement as a local agent's.
 */
export async function launchRemoteAgent(run: AgentLaunch, remote: RemoteAgentEndpoint, o: RemoteAgentOptions, reconnect: RemoteReconnect): Promise<AcpClientConnection> {
  const { name } = run.definition;
  let transport: RemoteTransport;
  try {
    transport = await connectRemoteAgent({
      name,
      remote,
      logger: run.logger,
      secrets: o.secrets,
      secretUi: o.secretUi,
      connecting: (host) => run.setStatus('starting', `connecting to ${host}…`),
      onDrop: (dropped, error) => onDrop(run, reconnect, dropped, error),
    });
  } catch (error) {
    run.check();
    await forgetRefusedSecrets(name, error, remote, o.secrets);
    run.failed(error);
    throw error;
  }
  if (!run.own(transport)) {
    await transport.close();
    run.check();
  }
  run.log.info(`Connecting to ${name} at ${describeUrl(remote.url)}`);
  const connection = run.connect((Connection, options) => new Connection(transport.input, transport.output, { ...options, framing: 'message' }));
  try {
    // The agent's login command cannot run here: it lives on the server.
    await run.initialize(connection, { terminalAuth: false, timeoutMs: REMOTE_INITIALIZE_TIMEOUT_MS });
  } catch (error) {
    run.check();
    // When the transport failed (a 401, a network error) it says why better than the request does.
    const failure = await settledNow(transport.closed);
    run.release(transport);
    await transport.close();
    const reason = failure ?? error;
    await forgetRefusedSecrets(name, reason, remote, o.secrets);
    run.failed(reason);
    throw reason;
  }
  run.check();
  reconnect.reset();
  run.log.info(`Connected to ${name} at ${describeUrl(remote.url)}`);
  run.ready(connection);
  return connection;
}

/** The connection ended without being asked to: reported like a crash, then retried. */
function onDrop(run: AgentLaunch, reconnect: RemoteReconnect, transport: RemoteTransport, error: RemoteConnectionError): void {
  if (!run.release(transport)) return;
  run.log.error(`${run.definition.name}: ${error.message}`);
  reconnect.dropped(error);
  run.exited({ exit: { code: null, signal: null, requested: false, stderrTail: [] }, crashed: true });
}

export interface RemoteConnectOptions {
  name: string;
  remote: RemoteAgentEndpoint;
  logger: Logger;
  secrets?: AgentSecrets;
  secretUi?(): AuthUi;
  /** The checks passed: connecting to `host` now (possibly after asking for secrets). */
  connecting(host: string): void;
  /** The connection ended without being asked to. */
  onDrop(transport: RemoteTransport, error: RemoteConnectionError): void;
}

/** Checks the URL and credentials policy, fills in the secret headers and connects. */
export async function connectRemoteAgent(o: RemoteConnectOptions): Promise<RemoteTransport> {
  const { remote } = o;
  const endpoint = parseRemoteUrl(remote.url);
  const needSecrets = headersNeedingSecrets(remote.headers);
  assertCredentialsAllowed(endpoint, Object.keys(remote.headers).filter((n) => needSecrets.includes(n) || isCredentialHeader(n)));
  o.connecting(endpoint.url.host);
  let headers: Record<string, string> = { ...remote.headers };
  let secretHeaders: string[] = [];
  if (needSecrets.length > 0) {
    if (!o.secrets) throw new Error(`${o.name} needs secret headers, but secret storage is not available here.`);
    ({ headers, secretHeaders } = await resolveSecretHeaders(o.name, endpoint.url.host, remote.headers, o.secrets, o.secretUi?.() ?? windowAuthUi));
  }
  const transport: RemoteTransport = await connectRemoteTransport({
    url: remote.url,
    headers,
    secretHeaders,
    logger: o.logger,
    onDrop: (error) => o.onDrop(transport, error),
  });
  return transport;
}

/** The server refused the credentials (401/403): the next connection asks for them again. */
export async function forgetRefusedSecrets(name: string, error: unknown, remote: RemoteAgentEndpoint, secrets: AgentSecrets | undefined): Promise<void> {
  if (error instanceof RemoteConnectionError && error.kind === 'unauthorized' && secrets) {
    await forgetSecretHeaders(name, remote.headers, secrets);
  }
}

/** For logs: no query string (it may carry a token). */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** The promise's value if it settles before the next macrotask, else undefined. */
function settledNow<T>(promise: Promise<T>): Promise<T | undefined> {
  return Promise.race([promise, new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)))]);
}
