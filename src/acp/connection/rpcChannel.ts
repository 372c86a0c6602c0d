// The JSON-RPC layer under the ACP client: our reader/writer plugged into vscode-jsonrpc,
// with ACP's `$/cancel_request` instead of LSP's `$/cancelRequest`, a cancel path on
// every wait (AbortSignal, timeout, connection close), responses for unknown ids logged
// and dropped, and unknown incoming methods answered -32601 with the method in data.
import type { Readable, Writable } from 'node:stream';
import {
  CancellationTokenSource,
  createMessageConnection,
  ResponseError,
  type CancellationStrategy,
  type Message,
  type MessageConnection,
  type RequestMessage,
} from 'vscode-jsonrpc/node';
import { AbortedError, AcpRequestError, ConnectionClosedError, ErrorCode, TimeoutError } from '../errors';
import type { Logger } from '../logger';
import type { FramingOption } from '../transport/frameDecoder';
import { AcpMessageReader, type FastNotificationHandler } from '../transport/messageReader';
import { AcpMessageWriter } from '../transport/messageWriter';
import { TraceRecorder, type TraceHook } from '../transport/trace';
import type { Disposable, IncomingRequestContext } from './handlers';
import { isBridgeError } from '../bridgeErrors';

export const CANCEL_REQUEST_METHOD = '$/cancel_request';

export interface RpcChannelOptions {
  logger: Logger;
  trace?: TraceHook;
  framing?: FramingOption;
  maxMessageBytes?: number;
}

export interface SendOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Send `$/cancel_request` when the wait is abandoned (default true). */
  cancelOnAbort?: boolean;
}

export type IncomingRequestHandler = (params: unknown, context: IncomingRequestContext) => unknown;
export type IncomingNotificationHandler = (params: unknown) => void;
export type ErrorMapper = (method: string, error: ResponseError<unknown>) => Error;

interface PendingWait {
  fail(error: Error): void;
}

export class RpcChannel {
  readonly closed: Promise<ConnectionClosedError>;
  private readonly rpc: MessageConnection;
  private readonly reader: AcpMessageReader;
  private readonly writer: AcpMessageWriter;
  private readonly logger: Logger;
  private readonly pending = new Set<PendingWait>();
  /** Ids of our requests still awaiting an answer: anything else is an unknown id. */
  private readonly outstanding = new Set<string | number>();
  private readonly requestHandlers = new Map<string, IncomingRequestHandler>();
  private readonly notificationHandlers = new Map<string, IncomingNotificationHandler>();
  /** Incoming requests being handled, by id, so `$/cancel_request` can abort them. */
  private readonly incoming = new Map<string | number, AbortController>();
  private lastIncoming: { id: string | number; source: CancellationTokenSource } | undefined;
  private closeError: ConnectionClosedError | undefined;
  private resolveClosed!: (error: ConnectionClosedError) => void;
  private errorMapper: ErrorMapper = (method, e) => new AcpRequestError(method, e.code, e.message, e.data);

  constructor(
    input: Readable,
    private readonly output: Writable,
    options: RpcChannelOptions,
  ) {
    this.logger = options.logger;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    const trace = options.trace ? new TraceRecorder(options.trace) : undefined;
    this.writer = new AcpMessageWriter(output, { trace, onSend: (m) => this.noteSent(m) });
    this.reader = new AcpMessageReader(input, {
      logger: this.logger,
      framing: options.framing,
      maxMessageBytes: options.maxMessageBytes,
      trace,
      onFramingDetected: (framing) => this.writer.setFraming(framing),
      acceptResponse: (id) => this.acceptResponse(id),
    });
    this.rpc = createMessageConnection(this.reader, this.writer, toRpcLogger(this.logger), {
      cancellationStrategy: this.cancellationStrategy(),
    });
    this.rpc.onRequest((method, params, token) => this.dispatchRequest(method, params, token));
    this.rpc.onNotification((method: string, params: unknown) => this.dispatchNotification(method, params));
    this.rpc.onClose(() => this.handleClose(new ConnectionClosedError('The agent closed the connection')));
    this.rpc.onError(([error]) => this.logger.warn(`ACP transport error: ${error.message}`));
    this.onNotification(CANCEL_REQUEST_METHOD, (params) => this.cancelIncoming(params));
    this.rpc.listen();
  }

  get isClosed(): boolean {
    return this.closeError !== undefined;
  }

  /** Why the connection closed, once it has. */
  get closeReason(): ConnectionClosedError | undefined {
    return this.closeError;
  }

  setErrorMapper(mapper: ErrorMapper): void {
    this.errorMapper = mapper;
  }

  /** Notifications of `method` skip vscode-jsonrpc's dispatch (see AcpMessageReader). */
  onFastNotification(method: string, handler: FastNotificationHandler): void {
    this.reader.setFastPath(method, handler);
  }

  onRequest(method: string, handler: IncomingRequestHandler): Disposable {
    this.requestHandlers.set(method, handler);
    return { dispose: () => this.requestHandlers.get(method) === handler && this.requestHandlers.delete(method) };
  }

  onNotification(method: string, handler: IncomingNotificationHandler): Disposable {
    this.notificationHandlers.set(method, handler);
    return { dispose: () => this.notificationHandlers.get(method) === handler && this.notificationHandlers.delete(method) };
  }

  request(method: string, params: unknown, options: SendOptions = {}): Promise<unknown> {
    if (this.closeError) return Promise.reject(this.closeError);
    if (options.signal?.aborted) return Promise.reject(new AbortedError(method));
    return new Promise<unknown>((resolve, reject) => {
      const token = options.cancelOnAbort === false ? undefined : new CancellationTokenSource();
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        token?.cancel();
        finish(() => reject(new AbortedError(method)));
      };
      const wait: PendingWait = { fail: (error) => finish(() => reject(error)) };
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        this.pending.delete(wait);
        options.signal?.removeEventListener('abort', onAbort);
        if (timer) clearTimeout(timer);
        token?.dispose();
        settle();
      };
      this.pending.add(wait);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          token?.cancel();
          finish(() => reject(new TimeoutError(method, options.timeoutMs!)));
        }, options.timeoutMs);
      }
      const sent = token ? this.rpc.sendRequest(method, params, token.token) : this.rpc.sendRequest(method, params);
      sent.then(
        (result) => finish(() => resolve(result)),
        (error: unknown) => finish(() => reject(this.toError(method, error))),
      );
    });
  }

  async notify(method: string, params: unknown): Promise<void> {
    if (this.closeError) throw this.closeError;
    await this.rpc.sendNotification(method, params);
  }

  /** Stop talking to the agent: pending waits fail, the agent's stdin is ended. */
  close(reason?: Error): void {
    const error = reason instanceof ConnectionClosedError ? reason : new ConnectionClosedError(reason?.message ?? 'The connection was closed', { cause: reason });
    this.handleClose(error);
    try {
      this.output.end();
    } catch {
      // Already gone.
    }
  }

  private handleClose(error: ConnectionClosedError): void {
    if (this.closeError) return;
    this.closeError = error;
    for (const wait of [...this.pending]) wait.fail(error);
    for (const controller of this.incoming.values()) controller.abort(error);
    this.incoming.clear();
    this.reader.dispose();
    this.rpc.dispose();
    this.resolveClosed(error);
  }

  private toError(method: string, error: unknown): Error {
    if (error instanceof ResponseError) return this.errorMapper(method, error);
    if (this.closeError) return this.closeError;
    return new ConnectionClosedError(error instanceof Error ? error.message : String(error), { cause: error });
  }

  private noteSent(message: Message): void {
    const m = message as { id?: unknown; method?: unknown };
    if (typeof m.method === 'string' && (typeof m.id === 'number' || typeof m.id === 'string')) this.outstanding.add(m.id);
  }

  private acceptResponse(id: string | number | null): boolean {
    if (id !== null && this.outstanding.delete(id)) return true;
    this.logger.warn(`Ignored a response for unknown request id ${JSON.stringify(id)}`);
    return false;
  }

  private async dispatchRequest(method: string, params: unknown, token: { onCancellationRequested: (l: () => void) => unknown }): Promise<unknown> {
    const current = this.lastIncoming;
    this.lastIncoming = undefined;
    const requestId = current?.id ?? -1;
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      this.logger.warn(`The agent called ${method}, which this client does not handle`);
      throw new ResponseError(ErrorCode.MethodNotFound, `Method not found: ${method}`, { method });
    }
    const controller = new AbortController();
    this.incoming.set(requestId, controller);
    token.onCancellationRequested(() => controller.abort());
    try {
      return await handler(params, { method, requestId, signal: controller.signal });
    } catch (error) {
      throw toResponseError(method, error, controller.signal.aborted);
    } finally {
      if (this.incoming.get(requestId) === controller) this.incoming.delete(requestId);
    }
  }

  private dispatchNotification(method: string, params: unknown): void {
    const handler = this.notificationHandlers.get(method);
    if (!handler) {
      this.logger.debug?.(`Ignored notification ${method}`);
      return;
    }
    try {
      handler(params);
    } catch (error) {
      this.logger.error(`Handler for ${method} failed: ${String(error)}`);
    }
  }

  private cancelIncoming(params: unknown): void {
    const id = (params as { requestId?: unknown } | null)?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    this.incoming.get(id)?.abort();
  }

  private cancellationStrategy(): CancellationStrategy {
    return {
      receiver: {
        kind: 'request',
        // Called synchronously right before our request handler: remember the id.
        createCancellationTokenSource: (request: RequestMessage) => {
          const source = new CancellationTokenSource();
          if (request.id !== null) this.lastIncoming = { id: request.id, source };
          return source;
        },
      },
      sender: {
        sendCancellation: async (connection, id) => {
          if (!this.closeError) await connection.sendNotification(CANCEL_REQUEST_METHOD, { requestId: id });
        },
        cleanup: () => undefined,
      },
    };
  }
}

function toResponseError(method: string, error: unknown, aborted: boolean): ResponseError<unknown> {
  if (error instanceof ResponseError) return error;
  if (error instanceof AcpRequestError || isBridgeError(error)) return new ResponseError(error.code, error.message, error.data);
  if (aborted || (error instanceof Error && error.name === 'AbortError')) {
    return new ResponseError(ErrorCode.RequestCancelled, `${method} was cancelled`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ResponseError(ErrorCode.InternalError, `${method} failed: ${message}`);
}

function toRpcLogger(logger: Logger) {
  return {
    error: (m: string) => logger.error(m),
    warn: (m: string) => logger.warn(m),
    info: (m: string) => logger.info(m),
    log: (m: string) => (logger.debug ? logger.debug(m) : undefined),
  };
}
