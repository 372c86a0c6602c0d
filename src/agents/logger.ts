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

/**
 * The logger minus its failures: logging must never stop what it reports on. (VS Code disposes an
 * extension's output channels while its async deactivate still runs; a closed channel throws "Channel
 * has been closed", which once aborted the stop of an agent between closing its stdin and SIGTERM.)
 */
export function neverThrows(logger: AgentLogger): AgentLogger {
  const guard =
    (log: (message: string) => void) =>
    (message: string): void => {
      try {
        log.call(logger, message);
      } catch {
        // The log is gone; there is nowhere left to report that.
      }
    };
  return { info: guard(logger.info), warn: guard(logger.warn), error: guard(logger.error) };
}
