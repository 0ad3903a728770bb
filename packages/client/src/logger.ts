/** The subset of a logger the client calls: console, pino and winston all fit. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };
const REDACTED = "[redacted]";
// Header names whose values are credentials, whatever else happens to be in them.
const SECRET_HEADER = /^x-(api-key|signature)$/i;

/** A level-filtered, redacting logger. */
export interface Log {
  /** True when debug lines are written: callers skip building them otherwise (they run per request). */
  readonly debug: boolean;
  readonly write: (level: Exclude<LogLevel, "off">, message: string, fields?: Record<string, unknown>) => void;
  /** Adds a value (a signature) to scrub from every later line. */
  readonly secret: (value: string) => void;
}

/**
 * Wraps `logger` so that lines below `level` are dropped and the API key, the
 * secret and every signature are replaced by `[redacted]` wherever they
 * appear in the message or fields, nested or inside longer strings.
 */
export function createLog(logger: Logger | undefined, level: LogLevel, secrets: string[]): Log {
  const min = RANK[level];
  // Signatures are per request; a bounded list keeps a long-running process from growing.
  const scrub = secrets.filter((s) => s.length > 0);
  const fixed = scrub.length;
  const clean = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") {
      let out = value;
      for (const s of scrub) if (out.includes(s)) out = out.split(s).join(REDACTED);
      return out;
    }
    if (value === null || typeof value !== "object" || depth > 6) return value;
    if (value instanceof Error) return clean(`${value.name}: ${value.message}`, depth);
    if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_HEADER.test(k) ? REDACTED : clean(v, depth + 1);
    return out;
  };
  return {
    debug: logger?.debug !== undefined && min === 0,
    write(l, message, fields) {
      const fn = logger?.[l];
      if (fn === undefined || RANK[l] < min) return;
      const line = clean(message, 0) as string;
      if (fields === undefined) fn.call(logger, line);
      else fn.call(logger, line, clean(fields, 0) as Record<string, unknown>);
    },
    secret(value) {
      if (logger === undefined || value === "") return;
      scrub.push(value);
      if (scrub.length > fixed + 64) scrub.splice(fixed, 1);
    },
  };
}
