import { ExchangeValidationError, type OperationRef } from "./errors.js";

// Checks the spec states and a client can make without the server. test/validation-rules.test.ts reads the
// bundled spec and fails when a request date field or an exactly-one-of pair appears there and not here.

const DMY = /^(0[1-9]|[12]\d|3[01])-(0[1-9]|1[0-2])-\d{4}$/;
const YMD = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Body fields with a DateDMY or DateYMD schema, per operationId. */
export const BODY_DATE_FIELDS: Record<string, Record<string, "DD-MM-YYYY" | "YYYY-MM-DD">> = {
  createCustomer: { dob: "YYYY-MM-DD" },
  addKycData: { dob: "DD-MM-YYYY", registered_date: "DD-MM-YYYY" },
};

/** Body fields of which exactly one must be sent, per operationId. */
export const EXACTLY_ONE_OF: Record<string, readonly string[]> = {
  createPayinQuotation: ["sending_amount", "receiving_amount"],
  createPayoutQuotation: ["sending_amount", "receiving_amount"],
  createRemittancePayoutQuotation: ["sending_amount", "receiving_amount"],
};

// Amounts are decimal strings everywhere: a number would lose digits before it is even sent.
const AMOUNT_FIELDS = ["sending_amount", "receiving_amount"];

type Errors = Record<string, string[]>;

/** Records `field` as wrong unless `value` is undefined or passes `valid`. */
// biome-ignore lint/suspicious/noExplicitAny: `valid` is a type guard over a narrower type (isPathValue, isAmount); any lets each be passed as is.
function check(errors: Errors, field: string, value: unknown, valid: (v: any) => boolean, rule: string): void {
  if (value !== undefined && !valid(value)) {
    (errors[field] ??= []).push(`must be ${rule}, got ${typeof value === "string" ? `"${value}"` : String(value)}`);
  }
}

const matches = (pattern: RegExp) => (v: unknown) => typeof v === "string" && pattern.test(v);
const between = (min: number, max: number) => (v: unknown) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
// Made once: these run on every request.
const isDMY = matches(DMY);
const isYMD = matches(YMD);
const isDecimal = matches(DECIMAL);
const isPage = between(1, Infinity);
const isPerPage = between(10, 100);
const isPathValue = (v: unknown) =>
  typeof v === "number" ? Number.isSafeInteger(v) : typeof v === "string" && v !== "";

/** Throws ExchangeValidationError for path parameters that would change the URL (empty, not integral). */
export function checkPathParams(operation: OperationRef, names: readonly string[], values: readonly unknown[]): void {
  const errors: Errors = {};
  for (let i = 0; i < names.length; i++) {
    check(errors, names[i]!, values[i] ?? null, isPathValue, "a non-empty string or an integer");
  }
  fail(operation, errors);
}

/** Throws ExchangeValidationError for out-of-range paging and for lone or malformed history dates. */
export function checkQuery(operation: OperationRef, query: Record<string, unknown>): void {
  const errors: Errors = {};
  const { start_date: start, end_date: end } = query;
  check(errors, "page", query.page, isPage, "an integer >= 1");
  check(errors, "per_page", query.per_page, isPerPage, "an integer from 10 to 100");
  if ((start === undefined) !== (end === undefined))
    errors.date_range = ["start_date and end_date must be sent together"];
  check(errors, "start_date", start, isYMD, "a date written YYYY-MM-DD");
  check(errors, "end_date", end, isYMD, "a date written YYYY-MM-DD");
  fail(operation, errors);
}

/** Throws ExchangeValidationError for body rules the spec states: date formats, exactly-one-of, amounts. */
export function checkBody(operation: OperationRef, body: unknown): void {
  if (body === null || typeof body !== "object") return;
  const record = body as Record<string, unknown>;
  const errors: Errors = {};
  const id = operation.operationId ?? "";
  for (const [field, format] of Object.entries(BODY_DATE_FIELDS[id] ?? {})) {
    check(errors, field, record[field], format === "DD-MM-YYYY" ? isDMY : isYMD, `a date written ${format}`);
  }
  const pair = EXACTLY_ONE_OF[id];
  const sent = pair?.filter((f) => record[f] !== undefined).length;
  if (pair !== undefined && sent !== 1) {
    errors[pair.join("|")] = [`send exactly one of ${pair.join(" and ")}${sent ? ", not both" : ""}`];
  }
  for (const field of AMOUNT_FIELDS)
    check(errors, field, record[field], isDecimal, 'a decimal string such as "2500.00"');
  fail(operation, errors);
}

/** Throws ExchangeValidationError for the first field of `errors`, when there is one; the error carries them all. */
export function fail(operation: OperationRef, errors: Errors): void {
  // The first field, without the array Object.keys would make on every call (the usual answer is none).
  for (const field in errors) {
    throw new ExchangeValidationError(
      `${operation.operationId ?? operation.path}: ${field} ${errors[field]![0]}`,
      errors,
      operation,
    );
  }
}
