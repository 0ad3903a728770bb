/** Where the sandbox writes its log lines; `console` fits. Every method is optional. */
export interface SandboxLogger {
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

export interface Logger {
  /** False when no logger was given: callers skip building log lines (the request path is hot). */
  enabled: boolean;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function toLogger(logger: SandboxLogger | undefined): Logger {
  const noop = () => {};
  return {
    enabled: logger !== undefined,
    info: logger?.info?.bind(logger) ?? noop,
    warn: logger?.warn?.bind(logger) ?? noop,
    error: logger?.error?.bind(logger) ?? noop,
  };
}
