// The protocol layer never writes to the console: the host injects where log lines go
// (an OutputChannel in VS Code, an array in tests).

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
