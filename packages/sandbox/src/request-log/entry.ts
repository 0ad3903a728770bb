// One line of the request log: what an organization's request asked and what the sandbox answered. Built from
// the answered request alone (no headers are kept, so no signature is), with the organization's API secret
// blanked in every form wherever it appears (path, query, both bodies), before the bodies are capped.
import type { AnsweredRequest } from "../http/server.js";
import { capBody, redactSecrets } from "../secrets/redact.js";

export { capBody, REDACTED } from "../secrets/redact.js";

/** A body as logged: its text up to the cap, its whole size, and whether it was cut. */
export interface LoggedBody {
  text: string;
  bytes: number;
  truncated: boolean;
}

/**
 * One logged request, numbered per organization (`seq` 1, 2, 3, ... with no gap while nothing is dropped, in the
 * order entries are kept, across replicas).
 */
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
  /**
   * The sandbox process that answered: the `replica` option; on PostgreSQL by default its host and process ID; null
   * on SQLite without the option (one process holds the database: there are no replicas).
   */
  replica: string | null;
}

export interface EntryOptions {
  maxBodyBytes: number;
  /** Strings never kept (the organization's API secret). */
  secrets: readonly string[];
  /** Real time now (ms since the epoch) and performance.now(), to date the request and time it. */
  nowMs: number;
  nowPerf: number;
  /** The name of this sandbox process among the replicas; null when there are none. */
  replica: string | null;
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
    replica: options.replica,
  };
}
