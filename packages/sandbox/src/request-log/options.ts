// The request log's options as given to createSandbox, checked before anything opens.
import { DEFAULT_REQUEST_LOG, type RequestLogOptions } from "./request-log.js";

/** The request log's bounds a sandbox can set (each defaulted). */
export interface SandboxRequestLogOptions {
  /** Entries kept per organization; the oldest are dropped past it. Default 10,000. */
  maxEntries?: number;
  /** Bytes kept of each request and response body. Default 8192. */
  maxBodyBytes?: number;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`requestLog.${name} must be a whole number ≥ 1`);
  return value;
}

/**
 * The options with their defaults; a TypeError for a bound that is not a whole number of at least 1.
 *
 * @example
 * requestLogOptions({ maxEntries: 500 }); // { maxEntries: 500, maxBodyBytes: 8192 }
 */
export function requestLogOptions(given: SandboxRequestLogOptions = {}): RequestLogOptions {
  return {
    maxEntries: positiveInteger("maxEntries", given.maxEntries, DEFAULT_REQUEST_LOG.maxEntries),
    maxBodyBytes: positiveInteger("maxBodyBytes", given.maxBodyBytes, DEFAULT_REQUEST_LOG.maxBodyBytes),
  };
}
