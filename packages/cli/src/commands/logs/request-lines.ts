// How `exchange-kit logs` writes a request: one line a person reads, `12:01:02 POST createCustomer 400
// USR_DUPLICATE_CONTACT 4 ms`, and the query of the log call that the flags ask for.
import type { RequestLogEntry } from "@exchange-kit/sandbox";
import { operationIndex } from "@exchange-kit/types";
import { unknownNameMessage } from "../../did-you-mean.js";
import { UsageError } from "../../output.js";

/** HH:MM:SS of an ISO time, in the local time zone (as a terminal clock shows it). */
export function clockTime(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

/**
 * The line of one logged request: time, method, operationId (else the path), status, err_code when there is
 * one, latency, and the fault when one was injected.
 *
 * @example
 * requestLine({ at, method: "POST", operation_id: "createCustomer", path, status: 400, err_code: "USR_DUPLICATE_CONTACT", latency_ms: 4.2, ... });
 * // "12:01:02 POST createCustomer 400 USR_DUPLICATE_CONTACT 4 ms"
 */
export function requestLine(entry: RequestLogEntry): string {
  const parts = [clockTime(entry.at), entry.method, entry.operation_id ?? entry.path, String(entry.status)];
  if (entry.err_code) parts.push(entry.err_code);
  parts.push(`${Math.round(entry.latency_ms)} ms`);
  if (entry.fault) parts.push(`(fault ${entry.fault})`);
  return parts.join(" ");
}

/** `--since`: an ISO 8601 time, or a duration back from `now` (`30s`, `10m`, `2h`, `1d`). */
export function sinceFlag(value: string | boolean | undefined, now: number): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const ago = /^(\d+)([smhd])$/.exec(text);
  if (ago) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as "s" | "m" | "h" | "d"];
    return new Date(now - Number(ago[1]) * unit).toISOString();
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text).toISOString();
  throw new UsageError(
    `--since takes an ISO time (2026-05-01T12:00:00Z) or a duration (30s, 10m, 2h, 1d), got "${text}"`,
  );
}

/** `--limit`: how many of the latest requests to print without --follow (1..1000, default 20). */
export function limitFlag(value: string | boolean | undefined): number {
  if (value === undefined) return 20;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError("--limit must be from 1 to 1000");
  return limit;
}

/**
 * `--status`: an exact HTTP status (100 to 599) or a class (`4xx`), checked here so a typo is a usage error (exit
 * 2) instead of the sandbox's "Invalid request log filter".
 *
 * @example
 * statusFlag("4XX"); // "4xx"
 * statusFlag("6xx"); // throws UsageError
 */
export function statusFlag(value: string): string {
  if (/^[1-5]xx$/i.test(value)) return value.toLowerCase();
  if (/^\d{3}$/.test(value) && Number(value) >= 100 && Number(value) <= 599) return value;
  throw new UsageError(`--status takes an HTTP status (100 to 599) or a class such as 4xx, got "${value}"`);
}

/** `--operation-id`: one of the spec's operationIds; a near miss gets "did you mean". */
export function operationIdFlag(value: string): string {
  const known = Object.keys(operationIndex);
  if (known.includes(value)) return value;
  throw new UsageError(
    unknownNameMessage("--operation-id", value, known, "the spec's operationIds (createCustomer, ...)"),
  );
}

/** The log call's filters from the flags (status, err_code, operation_id, since). */
export function filterQuery(values: Record<string, string | boolean | undefined>, now: number): Record<string, string> {
  const query: Record<string, string> = {};
  if (typeof values.status === "string") query.status = statusFlag(values.status);
  if (typeof values["err-code"] === "string") query.err_code = values["err-code"];
  if (typeof values["operation-id"] === "string") query.operation_id = operationIdFlag(values["operation-id"]);
  const since = sinceFlag(values.since, now);
  if (since) query.since = since;
  return query;
}
