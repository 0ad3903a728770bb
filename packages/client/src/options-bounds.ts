// The ranges of the client's numeric options. A value outside them is refused where it is given (construction, or
// the call), naming the option and its range: `maxRetries: Infinity` with `retryBaseMs: 0` used to be accepted and
// would retry a failing call in a tight loop for ever.
import { ExchangeConfigurationError, ExchangeValidationError, type OperationRef } from "./errors.js";
import type { LogLevel } from "./logger.js";

/** An option's range: from `min` to `max` (`Infinity` itself allowed only where `max` is Infinity). */
interface Bound {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

/** 4 MiB: a full page of 100 order records is about 80 KB (the spec's examples), so 50 times that. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The range of every numeric option of createExchangeClient (and of the per-call ones of the same name). */
export const OPTION_BOUNDS = {
  // More than 10 retries of a failing call helps nobody: at the document's 1 s base it is 17 minutes of backoff.
  maxRetries: { min: 0, max: 10, integer: true },
  timeoutMs: { min: 1, max: Infinity, integer: false },
  deadlineMs: { min: 1, max: Infinity, integer: false },
  // A floor of 1 ms keeps a retry from being immediate; above a minute the backoff outlives any caller.
  retryBaseMs: { min: 1, max: 60_000, integer: false },
  historyLookupPages: { min: 1, max: 100, integer: true },
  // Below 1 KiB even an error envelope may not fit; above 1 GiB the limit no longer protects the process.
  maxResponseBytes: { min: 1024, max: 2 ** 30, integer: true },
} as const satisfies Record<string, Bound>;

export type BoundedOption = keyof typeof OPTION_BOUNDS;

/** The range in words: "an integer from 0 to 10", "a number >= 1 (Infinity allowed)". */
function describe(bound: Bound): string {
  const kind = bound.integer ? "an integer" : "a number";
  return bound.max === Infinity
    ? `${kind} >= ${bound.min} (Infinity allowed)`
    : `${kind} from ${bound.min} to ${bound.max}`;
}

/**
 * Why `value` is not a valid `option`, or undefined when it is (undefined itself is: the default applies).
 *
 * @example
 * outOfBounds("maxRetries", Infinity); // "maxRetries must be an integer from 0 to 10, got Infinity"
 * outOfBounds("timeoutMs", Infinity); // undefined
 */
export function outOfBounds(option: BoundedOption, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const bound: Bound = OPTION_BOUNDS[option];
  const inside =
    typeof value === "number" &&
    value >= bound.min &&
    value <= bound.max &&
    (value === Infinity || !bound.integer || Number.isInteger(value));
  if (inside) return undefined;
  const got = typeof value === "string" ? JSON.stringify(value) : String(value);
  return `${option} must be ${describe(bound)}, got ${got}`;
}

/** `value` when it is inside the option's range, `fallback` when undefined; throws ExchangeConfigurationError. */
export function boundedOption<T extends number | undefined>(
  option: BoundedOption,
  value: unknown,
  fallback: T,
): number | T {
  const problem = outOfBounds(option, value);
  if (problem !== undefined) throw new ExchangeConfigurationError(problem, option);
  return (value as number | undefined) ?? fallback;
}

/** Throws ExchangeValidationError (nothing is sent) when a call's own maxRetries, timeoutMs or deadlineMs is out of range. */
export function checkCallBounds(
  options: { maxRetries?: unknown; timeoutMs?: unknown; deadlineMs?: unknown },
  operation: OperationRef,
): void {
  // Most calls set none of them: one test, then nothing.
  if (options.maxRetries === undefined && options.timeoutMs === undefined && options.deadlineMs === undefined) return;
  for (const option of ["maxRetries", "timeoutMs", "deadlineMs"] as const) {
    const problem = outOfBounds(option, options[option]);
    if (problem !== undefined) throw new ExchangeValidationError(problem, { [option]: [problem] }, operation);
  }
}

/**
 * The base URL without trailing slashes, or ExchangeConfigurationError: it must be an absolute http(s) URL with no
 * credentials (fetch refuses them, and they would be sent to the service), no query and no fragment (paths are
 * appended to it).
 *
 * @example
 * checkBaseUrl("https://sandbox.exchange.example/"); // "https://sandbox.exchange.example"
 */
export function checkBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ExchangeConfigurationError(`baseUrl must be an http(s) URL, got ${text}`, "baseUrl");
  }
  const problem =
    url.protocol !== "https:" && url.protocol !== "http:"
      ? `an http(s) URL, got a ${url.protocol} URL`
      : url.username !== "" || url.password !== ""
        ? "without credentials (user:password@): pass apiKey and apiSecret instead"
        : // In href a ? or # can only start the query or the fragment (elsewhere they are percent-encoded).
          /[?#]/.test(url.href)
          ? "without a query or a fragment: the paths are appended to it"
          : undefined;
  if (problem !== undefined) throw new ExchangeConfigurationError(`baseUrl must be ${problem}`, "baseUrl");
  return url.href.replace(/\/+$/, "");
}

const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "off"];

/**
 * `logLevel` when it is one of the levels (a misspelt one would silently drop every line), `"info"` when undefined;
 * throws ExchangeConfigurationError.
 *
 * @example
 * checkLogLevel("warning"); // throws: logLevel must be one of "debug", "info", "warn", "error", "off", got "warning"
 */
export function checkLogLevel(value: unknown): LogLevel {
  if (value === undefined) return "info";
  if (LOG_LEVELS.includes(value as LogLevel)) return value as LogLevel;
  const allowed = LOG_LEVELS.map((level) => `"${level}"`).join(", ");
  throw new ExchangeConfigurationError(`logLevel must be one of ${allowed}, got ${JSON.stringify(value)}`, "logLevel");
}

// A header value: no control characters but tab (fetch throws on CR, LF and NUL, and that error would be retried as
// a network error on every call).
const HEADER_VALUE = /^[^\0-\x08\x0a-\x1f\x7f]*$/;

/**
 * `userAgent` when it can be sent as a header value, the default when undefined; throws ExchangeConfigurationError.
 *
 * @example
 * checkUserAgent("my-app/1.0 (ops@example.com)", "exchange-kit-client/1.0.0"); // "my-app/1.0 (ops@example.com)"
 */
export function checkUserAgent(value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value === "string" && value.trim() !== "" && HEADER_VALUE.test(value)) return value;
  throw new ExchangeConfigurationError(
    "userAgent must be a non-empty header value (no line breaks or other control characters)",
    "userAgent",
  );
}
