// Handler types for requests the agent sends to the client. Params are what our zod
// schemas validated (loose: newer fields pass through); results are typed from the SDK
// so what we send back is checked against the protocol's types at compile time.
import type {
  CreateElicitationResponse,
  CreateTerminalResponse,
  KillTerminalResponse,
  ReadTextFileResponse,
  ReleaseTerminalResponse,
  RequestPermissionResponse,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import type * as z from '../../shared/zod';
import * as S from '../schema/agentRequests';
import type { SessionRoute } from './subagentRoutes';

export interface IncomingRequestContext {
  method: string;
  requestId: string | number;
  /** Aborts when the agent sends `$/cancel_request`, the session is cancelled, or the connection closes. */
  signal: AbortSignal;
  /** For a request naming a session: the client's own, a child below one of them (subagents), or a stranger. */
  route?: SessionRoute;
}

export type RequestHandler<P, R> = (params: P, context: IncomingRequestContext) => R | Promise<R>;

export interface ClientRequestHandlers {
  'session/request_permission': RequestHandler<S.RequestPermissionParams, RequestPermissionResponse>;
  'fs/read_text_file': RequestHandler<S.ReadTextFileParams, ReadTextFileResponse>;
  'fs/write_text_file': RequestHandler<S.WriteTextFileParams, WriteTextFileResponse | void>;
  'terminal/create': RequestHandler<S.CreateTerminalParams, CreateTerminalResponse>;
  'terminal/output': RequestHandler<S.TerminalParams, TerminalOutputResponse>;
  'terminal/wait_for_exit': RequestHandler<S.TerminalParams, WaitForTerminalExitResponse>;
  'terminal/kill': RequestHandler<S.TerminalParams, KillTerminalResponse | void>;
  'terminal/release': RequestHandler<S.TerminalParams, ReleaseTerminalResponse | void>;
  'elicitation/create': RequestHandler<S.CreateElicitationParams, CreateElicitationResponse>;
}

export type ClientRequestMethod = keyof ClientRequestHandlers;

export const CLIENT_REQUEST_PARAMS: { [M in ClientRequestMethod]: z.ZodMiniType<Parameters<ClientRequestHandlers[M]>[0]> } = {
  'session/request_permission': S.RequestPermissionParamsSchema,
  'fs/read_text_file': S.ReadTextFileParamsSchema,
  'fs/write_text_file': S.WriteTextFileParamsSchema,
  'terminal/create': S.CreateTerminalParamsSchema,
  'terminal/output': S.TerminalParamsSchema,
  'terminal/wait_for_exit': S.TerminalParamsSchema,
  'terminal/kill': S.TerminalParamsSchema,
  'terminal/release': S.TerminalParamsSchema,
  'elicitation/create': S.CreateElicitationParamsSchema,
};

/** Extension methods (`_` prefix): params are whatever the agent sent. */
export type ExtRequestHandler = (params: unknown, context: IncomingRequestContext) => unknown;
export type ExtNotificationHandler = (params: unknown) => void;

export interface Disposable {
  dispose(): void;
}
