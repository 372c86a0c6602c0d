// Where a remote agent lives and whether we may send it credentials. Checked before any
// connection is opened, so a refused URL never sees a byte.
import { RemoteConnectionError } from './remoteErrors';

export type RemoteProtocol = 'http' | 'websocket';

export interface RemoteEndpoint {
  readonly url: URL;
  readonly protocol: RemoteProtocol;
  /** https or wss. */
  readonly secure: boolean;
}

const SCHEMES: Readonly<Record<string, { protocol: RemoteProtocol; secure: boolean }>> = {
  'http:': { protocol: 'http', secure: false },
  'https:': { protocol: 'http', secure: true },
  'ws:': { protocol: 'websocket', secure: false },
  'wss:': { protocol: 'websocket', secure: true },
};

/** Header names that carry credentials by convention (plus any header holding a secret). */
const CREDENTIAL_NAME = /^(authorization|proxy-authorization|cookie)$|token|secret|passw|api[-_]?key|auth|credential/i;

export function parseRemoteUrl(text: string): RemoteEndpoint {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new RemoteConnectionError('rejected', `"${text}" is not a valid URL.`);
  }
  const scheme = SCHEMES[url.protocol];
  if (!scheme) throw new RemoteConnectionError('rejected', `"${url.protocol}" URLs are not supported; use http, https, ws or wss.`);
  if (url.username || url.password) {
    throw new RemoteConnectionError('insecure', 'The URL contains a user name or password; put credentials in "headers" (with ${secret}) instead.');
  }
  return { url, ...scheme };
}

/** localhost, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address): traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const v4 = host.startsWith('::ffff:') ? host.slice('::ffff:'.length) : host;
  const parts = v4.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/**
 * Refuses to send credentials in the clear to another machine. `credentialHeaders`: the names of the
 * headers that carry secrets (see `isCredentialHeader`, plus those filled from SecretStorage).
 */
export function assertCredentialsAllowed(endpoint: RemoteEndpoint, credentialHeaders: readonly string[]): void {
  if (endpoint.secure || credentialHeaders.length === 0 || isLoopbackHost(endpoint.url.hostname)) return;
  const scheme = endpoint.protocol === 'http' ? 'https' : 'wss';
  const names = credentialHeaders.map((n) => `"${n}"`).join(', ');
  throw new RemoteConnectionError(
    'insecure',
    `Refused to send credentials (${names}) over plain ${endpoint.url.protocol.slice(0, -1)} to ${endpoint.url.host}: anyone on the network could read them. ` +
      `Use ${scheme}:// (or a loopback address such as 127.0.0.1 for a tunnel).`,
  );
}
