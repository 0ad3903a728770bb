import { createRedactor } from "./redact.js";

/** The subset of a logger the client calls: console, pino and winston all fit. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

/** A level-filtered, redacting logger. */
export interface Log {
  /** True when debug lines are written: callers skip building them otherwise (they run per request). */
  readonly debug: boolean;
  readonly write: (level: Exclude<LogLevel, "off">, message: string, fields?: Record<string, unknown>) => void;
}

/**
 * Wraps `logger` so that lines below `level` are dropped and the API key, the secret and every signature are
 * replaced by `[redacted]` wherever they appear in the message or fields, nested or inside longer strings (the
 * redactor of errors, redact.ts: a signature is recognised by its form, so none needs to be remembered).
 */
export function createLog(logger: Logger | undefined, level: LogLevel, secrets: string[]): Log {
  const min = RANK[level];
  const redact = createRedactor(secrets);
  return {
    debug: logger?.debug !== undefined && min === 0,
    write(l, message, fields) {
      const fn = logger?.[l];
      if (fn === undefined || RANK[l] < min) return;
      const line = redact.text(message);
      if (fields === undefined) fn.call(logger, line);
      else fn.call(logger, line, redact.value(fields));
    },
  };
}
