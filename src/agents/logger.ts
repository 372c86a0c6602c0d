/**
 * The logging surface the agents layer writes to. Injected rather than imported so this layer
 * stays free of VS Code (the host passes a LogOutputChannel adapter; tests pass a recorder).
 */
export interface AgentLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything: the default when a caller does not care. */
export const silentLogger: AgentLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
