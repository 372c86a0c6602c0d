// An agent's ACP connection, however the agent is reached: made with the protocol trace and a log marked
// with the agent's name, the client's request handlers and the session layer's hooks registered on it,
// initialize sent as Switchboard. Closing it undoes all of that at once, whether the agent stopped,
// crashed or dropped, so nothing registered on an old connection outlives it.
import type * as vscode from 'vscode';
import type { AcpClientConnection, AcpClientOptions, ClientRequestHandlers, Logger, TraceHook } from '../../acp';

export interface AgentConnectionOptions {
  log: vscode.LogOutputChannel;
  trace: TraceHook;
  /** Agent->client request handlers (fs, terminals, permissions, elicitation). */
  handlers: Partial<ClientRequestHandlers>;
  clientVersion: string;
  /** Optional hook to register more handlers (extension methods) on each new connection. */
  onConnection?(connection: AcpClientConnection): vscode.Disposable | undefined;
  /** Runs after initialize, before the agent counts as started (re-applies the user's Model provider choice). */
  afterInitialize?(connection: AcpClientConnection): Promise<void>;
}

export class AgentConnection {
  private value: AcpClientConnection | undefined;
  /** `value` once its start finished (initialize and afterInitialize succeeded): what callers may send requests on. */
  private initializedValue: AcpClientConnection | undefined;
  private disposables: { dispose(): unknown }[] = [];

  constructor(
    private readonly name: string,
    private readonly o: AgentConnectionOptions,
  ) {}

  /** The last connection opened, until it is closed here (it may have closed on its own). */
  get current(): AcpClientConnection | undefined {
    return this.value;
  }

  /** The current connection once its start finished; undefined while it starts (requests would fail). */
  get initialized(): AcpClientConnection | undefined {
    return this.initializedValue;
  }

  /** Its start finished: callers may have it (see initialized). */
  markInitialized(connection: AcpClientConnection): void {
    this.initializedValue = connection;
  }

  /** Makes the connection `create` returns (given the trace and logger) the current one, with the handlers on it. */
  open(create: (options: AcpClientOptions) => AcpClientConnection): AcpClientConnection {
    const connection = create({ trace: this.o.trace, logger: this.logger() });
    this.value = connection;
    this.disposables.push(connection.handleAll(this.o.handlers));
    const extra = this.o.onConnection?.(connection);
    if (extra) this.disposables.push(extra);
    return connection;
  }

  /** Disposed when the connection is closed here. */
  hold(disposable: { dispose(): unknown }): void {
    this.disposables.push(disposable);
  }

  async initialize(connection: AcpClientConnection, o: { terminalAuth: boolean; timeoutMs: number }): Promise<void> {
    await connection.initialize(
      { clientInfo: { name: 'switchboard', title: 'Switchboard for VS Code', version: this.o.clientVersion }, terminalAuth: o.terminalAuth },
      { timeoutMs: o.timeoutMs },
    );
    await this.o.afterInitialize?.(connection);
  }

  close(): void {
    for (const d of this.disposables) d.dispose();
    this.disposables = [];
    this.value?.close();
    this.value = undefined;
    this.initializedValue = undefined;
  }

  /** The main log, each line marked with the agent's name. */
  logger(): Logger {
    const { log } = this.o;
    return {
      info: (m: string) => log.info(`[${this.name}] ${m}`),
      warn: (m: string) => log.warn(`[${this.name}] ${m}`),
      error: (m: string) => log.error(`[${this.name}] ${m}`),
      debug: (m: string) => log.debug(`[${this.name}] ${m}`),
    };
  }
}
