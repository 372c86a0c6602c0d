// Remote agents (ACP over Streamable HTTP or WebSocket): the transport beside stdio's NDJSON.
export { connectRemoteTransport, type RemoteTransportOptions } from './connectRemote';
export type { RemoteTransport } from './messageTransport';
export { assertCredentialsAllowed, isCredentialHeader, isLoopbackHost, parseRemoteUrl, type RemoteEndpoint, type RemoteProtocol } from './remoteEndpoint';
export { RemoteConnectionError, type RemoteErrorKind } from './remoteErrors';
