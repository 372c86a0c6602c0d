// Public API of the protocol engine. Pure Node: nothing here may import `vscode`.
export { AcpClientConnection, PROTOCOL_VERSION } from './connection/clientConnection';
export type {
  AcpClientOptions,
  InitializeOptions,
  PromptOptions,
  RequestOptions,
  SessionParams,
  SessionUpdateListener,
} from './connection/clientConnection';
export type {
  ClientRequestHandlers,
  ClientRequestMethod,
  Disposable,
  ExtNotificationHandler,
  ExtRequestHandler,
  IncomingRequestContext,
  RequestHandler,
} from './connection/handlers';
export { clientCapabilitiesFor } from './connection/clientCapabilities';
export { composerCapabilities, listedSessionActions } from './connection/agentFeatures';
export { restrictPromptContent } from './connection/promptContent';
export * from './errors';
export type { Logger } from './logger';
export { silentLogger } from './logger';
export type { TraceEvent, TraceHook } from './transport/trace';
export { AcpMessageReader } from './transport/messageReader';
export { AcpMessageWriter } from './transport/messageWriter';
export { DEFAULT_MAX_MESSAGE_BYTES, FrameDecoder } from './transport/frameDecoder';
export type { Framing, FramingOption } from './transport/frameDecoder';
export { parseSessionNotification, parseSessionUpdate } from './schema/sessionUpdate';
export type { KnownSessionUpdate, SessionNotification, SessionUpdate, UnsupportedSessionUpdate } from './schema/sessionUpdate';
export type {
  AgentCapabilities,
  AuthMethod,
  ForkSessionResult,
  InitializeResult,
  ListSessionsResult,
  LoadSessionResult,
  NewSessionResult,
  PromptResult,
  SessionInfo,
  SetConfigOptionResult,
} from './schema/agentResponses';
export type * from './schema/agentRequests';
export type { AgentAuthStatus } from './schema/authStatus';
export type { ListProvidersResult, LlmProtocol, ProviderCurrentConfig, ProviderInfo, SetProviderParams } from './schema/providers';
export { TranscriptState } from './session/transcriptState';
export type { SessionRoute } from './connection/subagentRoutes';
export type { SteerOutcome, SteerResult } from './schema/steering';
export { toolCallFromRequest } from './session/toolCalls';
export type * from './protocolTypes';
export * from './bridgeErrors';
export * from './transport/remote';
