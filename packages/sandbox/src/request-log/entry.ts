// One line of the request log: what an organization's request asked and what the sandbox answered. Built from
// the answered request alone (no headers are kept, so no signature is), with the organization's API secret
// blanked in every form wherever it appears (path, query, both bodies), before the bodies are capped.
import type { AnsweredRequest } from "../http/server.js";
import { redactSecrets } from "./redact.js";

export { REDACTED } from "./redact.js";

/** A body as logged: its text up to the cap, its whole size, and whether it was cut. */
export interface LoggedBody {
  text: string;
  bytes: number;
  truncated: boolean;
}

/** One logged request, numbered per organization (`seq` 1, 2, 3, ... with no gap while nothing is dropped). */
export interface RequestLogEntry {
  seq: number;
  /** Real time (ISO 8601) the request arrived. */
  at: string;
  method: string;
  path: string;
  /** The query string without `?`, empty when none. */
  query: string;
  /** The spec's operationId; null for the sandbox's own routes and unknown paths. */
  operation_id: string | null;
  /** The route's path template (`/_sandbox/clock/advance`); null when no route matched. */
  route: string | null;
  /** The status answered; 0 when a fault (RESET, DROP_AFTER_COMMIT) sent no answer. */
  status: number;
  err_code: string | null;
  latency_ms: number;
  request: LoggedBody;
  response: LoggedBody;
  /** The kind of fault injected into this request (POST /_sandbox/faults, chaos mode); null when none. */
  fault: string | null;
}

/** The most bytes one UTF-16 unit of a secret takes in any form: `\uXXXX` behind 7 backslashes (redact.ts). */
const MAX_FORM_BYTES_PER_UNIT = 7 + 5;

const longest = (secrets: readonly string[]) => Math.max(0, ...secrets.map((secret) => secret.length));

/**
 * The body as kept: every form of each secret replaced (redactSecrets), then the first `maxBytes` bytes as text
 * (a character cut in two becomes U+FFFD). Redacted before the cut, so a secret across the cut leaves no part.
 *
 * @example
 * capBody(Buffer.from('{"a":"s3cret"}'), 1024, ["s3cret"]); // { text: '{"a":"[redacted]"}', bytes: 14, truncated: false }
 */
export function capBody(body: Buffer | string, maxBytes: number, secrets: readonly string[]): LoggedBody {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  // Only what can reach the cut is read: a form of a secret that starts before it ends within the window.
  const window = bytes.subarray(0, maxBytes + MAX_FORM_BYTES_PER_UNIT * longest(secrets));
  const redacted = Buffer.from(redactSecrets(window.toString("utf8"), secrets), "utf8");
  const truncated = bytes.length > maxBytes;
  const text = (redacted.length > maxBytes ? redacted.subarray(0, maxBytes) : redacted).toString("utf8");
  return { text, bytes: bytes.length, truncated };
}

export interface EntryOptions {
  maxBodyBytes: number;
  /** Strings never kept (the organization's API secret). */
  secrets: readonly string[];
  /** Real time now (ms since the epoch) and performance.now(), to date the request and time it. */
  nowMs: number;
  nowPerf: number;
}

/** The entry for an answered request, without its number (the log gives it one as it appends it). */
export function entryOf(answered: AnsweredRequest, options: EntryOptions): Omit<RequestLogEntry, "seq"> {
  const latency = Math.max(0, options.nowPerf - answered.startedAt);
  return {
    at: new Date(options.nowMs - latency).toISOString(),
    method: answered.method,
    path: redactSecrets(answered.target.path, options.secrets),
    query: redactSecrets(answered.target.search, options.secrets),
    operation_id: answered.route?.operation?.operationId ?? null,
    route: answered.route?.path ?? null,
    status: answered.answer.status,
    err_code: answered.answer.errCode,
    latency_ms: Math.round(latency * 10) / 10,
    request: capBody(answered.raw ?? Buffer.alloc(0), options.maxBodyBytes, options.secrets),
    response: capBody(answered.answer.text, options.maxBodyBytes, options.secrets),
    fault: answered.fault,
  };
}
