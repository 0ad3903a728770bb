// The body of POST /_sandbox/faults, checked member by member: every mistake is a 400 naming its field, so a
// typo never arms a different fault from the one meant, nor nothing at all.
import { ApiError, missingFields, REQUIRED_MESSAGE } from "../domain/api-error.js";
import { addUnknownMembers } from "../api/body-members.js";
import type { JsonObject } from "../api/route.js";
import { operations } from "../spec/openapi.js";
import { webhookEventTypes } from "@exchange-kit/types";
import { type FaultKind, isRequestFault, isWebhookFault, REQUEST_FAULTS, WEBHOOK_FAULTS } from "./fault-kinds.js";
import type { FaultScope } from "./fault-records.js";

export const FAULT_MEMBERS = ["operation", "event_type", "fault", "times", "delay_ms", "retry_after"] as const;
export const MAX_TIMES = 1_000_000;
/** Five minutes: a longer wait tests nothing a client timeout does not. */
export const MAX_DELAY_MS = 300_000;
/** A day, the longest Retry-After worth sending. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/** How long an OUT_OF_ORDER delivery waits for a later event of its record when delay_ms is not given. */
export const DEFAULT_HOLD_MS = 5_000;

/** A checked fault request, ready to arm. */
export interface FaultRequest {
  scope: FaultScope;
  target: string;
  fault: FaultKind;
  times: number;
  delay_ms?: number;
  retry_after?: number;
}

type Errors = Record<string, string[]>;

const OPERATION_IDS: ReadonlySet<string> = new Set(operations.map((op) => op.operationId));
const EVENT_TYPES: readonly string[] = webhookEventTypes;

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

function unknownMembers(body: JsonObject, errors: Errors): void {
  addUnknownMembers(body, FAULT_MEMBERS, `Unknown member; a fault takes ${FAULT_MEMBERS.join(", ")}.`, errors);
}

function checkFault(value: unknown, errors: Errors): FaultKind | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (isRequestFault(value) || isWebhookFault(value))) return value;
  errors.fault = [`Must be one of: ${[...REQUEST_FAULTS, ...WEBHOOK_FAULTS].join(", ")}.`];
  return undefined;
}

/** `operation` for a request fault (an operationId of the spec, or "*"); `event_type` for a webhook fault. */
function checkTarget(body: JsonObject, scope: FaultScope, errors: Errors, missing: string[]): string {
  const [wanted, other] = scope === "request" ? ["operation", "event_type"] : ["event_type", "operation"];
  if (body[other] !== undefined) errors[other] = [`Not with a ${scope} fault; use ${wanted}.`];
  const value = body[wanted];
  if (value === undefined) {
    // A webhook fault applies to every event type unless one is named.
    if (scope === "webhook") return "*";
    missing.push(wanted);
    return "";
  }
  const known = scope === "request" ? OPERATION_IDS.has(value as string) : EVENT_TYPES.includes(value as string);
  if (value === "*" || (typeof value === "string" && known)) return value as string;
  errors[wanted] = [
    scope === "request"
      ? 'Must be an operationId of the spec (e.g. "initiatePayout") or "*".'
      : `Must be one of: ${EVENT_TYPES.join(", ")}, or "*".`,
  ];
  return "";
}

function checkNumbers(body: JsonObject, fault: FaultKind, errors: Errors, missing: string[]): void {
  if (body.times !== undefined && !isIntegerIn(body.times, 1, MAX_TIMES))
    errors.times = [`Must be a whole number from 1 to ${MAX_TIMES}.`];
  const needsDelay = fault === "DELAY" || fault === "DELAYED_DELIVERY";
  if (body.delay_ms === undefined) {
    if (needsDelay) missing.push("delay_ms");
  } else if (fault === "DUPLICATE_DELIVERY") errors.delay_ms = ["Not with DUPLICATE_DELIVERY."];
  else if (!isIntegerIn(body.delay_ms, needsDelay ? 1 : 0, MAX_DELAY_MS))
    errors.delay_ms = [`Must be a whole number of milliseconds from ${needsDelay ? 1 : 0} to ${MAX_DELAY_MS}.`];
  if (body.retry_after === undefined) return;
  if (fault !== "HTTP_429") errors.retry_after = ["Only with HTTP_429."];
  else if (!isIntegerIn(body.retry_after, 0, MAX_RETRY_AFTER_SECONDS))
    errors.retry_after = [`Must be a whole number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}.`];
}

/** The field errors of a fault request (empty when it is valid), with the members that are missing. */
export function faultRequestErrors(body: JsonObject): { errors: Errors; missing: string[] } {
  const errors: Errors = {};
  const missing: string[] = [];
  unknownMembers(body, errors);
  const fault = checkFault(body.fault, errors);
  if (body.fault === undefined) missing.push("fault");
  if (fault) {
    checkTarget(body, isRequestFault(fault) ? "request" : "webhook", errors, missing);
    checkNumbers(body, fault, errors, missing);
  }
  return { errors, missing };
}

/**
 * The fault request in `body`, or the 400 naming every field that is wrong: REQ_FIELD_MISSING when members are
 * only missing, INPUT_MALFORMED (missing ones included) otherwise.
 *
 * @example
 * parseFaultRequest({ operation: "initiatePayout", fault: "DROP_AFTER_COMMIT", times: 1 });
 * // { scope: "request", target: "initiatePayout", fault: "DROP_AFTER_COMMIT", times: 1 }
 */
export function parseFaultRequest(body: JsonObject): FaultRequest {
  const { errors, missing } = faultRequestErrors(body);
  if (Object.keys(errors).length === 0 && missing.length > 0) throw missingFields(missing);
  if (Object.keys(errors).length > 0) {
    for (const name of missing) errors[name] = [REQUIRED_MESSAGE];
    throw new ApiError(400, "INPUT_MALFORMED", `Invalid fault: ${Object.keys(errors).join(", ")}`, errors);
  }
  const fault = body.fault as FaultKind;
  const scope: FaultScope = isRequestFault(fault) ? "request" : "webhook";
  const target = (scope === "request" ? body.operation : (body.event_type ?? "*")) as string;
  return {
    scope,
    target,
    fault,
    times: (body.times as number | undefined) ?? 1,
    ...(body.delay_ms === undefined ? {} : { delay_ms: body.delay_ms as number }),
    ...(body.retry_after === undefined ? {} : { retry_after: body.retry_after as number }),
  };
}
