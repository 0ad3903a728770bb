// Turns Ajv's errors into the document's error answer: a missing member is REQ_FIELD_MISSING with
// `errors: {field: ["This field is required."]}`, a badly formed one INPUT_MALFORMED (or the more precise code
// the operation lists: INPUT_INVALID_DATE_FORMAT, REQ_INVALID_COUNTRY, a per-operation code for a bad ID).
import type { ErrCode } from "@exchange-kit/types";
import { ApiError, REQUIRED_MESSAGE } from "../domain/api-error.js";
import type { ErrorObject } from "./ajv.js";

const COMBINATORS = new Set(["anyOf", "oneOf"]);
/** Keywords that mean "this alternative does not apply" rather than "this alternative is badly filled in". */
const DISCRIMINATING = new Set(["const", "enum", "not"]);

/** Ajv reports every failing alternative of anyOf/oneOf; keep the errors of the one the caller most likely meant. */
function pruneAlternatives(errors: ErrorObject[], ignoredSchemaPaths: readonly string[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  for (const error of errors) {
    if (error.keyword === "if") dropped.add(error);
    if (ignoredSchemaPaths.some((p) => error.schemaPath === p || error.schemaPath.startsWith(`${p}/`)))
      dropped.add(error);
  }
  for (const combinator of errors) {
    if (!COMBINATORS.has(combinator.keyword) || dropped.has(combinator)) continue;
    const prefix = `${combinator.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const error of errors) {
      if (!error.schemaPath.startsWith(prefix)) continue;
      const branch = error.schemaPath.slice(prefix.length).split("/")[0] ?? "";
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    if (branches.size === 0) continue; // oneOf matched several branches: keep the combinator error itself
    const ranked = [...branches.values()].sort((a, b) => {
      const aApplies = a.some((e) => DISCRIMINATING.has(e.keyword)) ? 1 : 0;
      const bApplies = b.some((e) => DISCRIMINATING.has(e.keyword)) ? 1 : 0;
      return aApplies - bApplies || a.length - b.length;
    });
    const keep = new Set(ranked[0]);
    for (const list of branches.values()) for (const error of list) if (!keep.has(error)) dropped.add(error);
    dropped.add(combinator);
  }
  return errors.filter((e) => !dropped.has(e));
}

function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "required") segments.push(String(error.params.missingProperty));
  if (error.keyword === "additionalProperties") segments.push(String(error.params.additionalProperty));
  return segments.length > 0 ? segments.join(".") : "non_field_errors";
}

function schemaName(error: ErrorObject): string {
  const match = /components\/schemas\/([^/]+)/.exec(error.schemaPath);
  return match?.[1] ?? "";
}

const FORMAT_MESSAGES: Record<string, string> = {
  uuid: "Must be a valid UUID.",
  email: "Enter a valid email address.",
  uri: "Enter a valid URL.",
  date: "Date must be in YYYY-MM-DD format.",
  "date-time": "Must be an ISO 8601 date-time.",
  ipv4: "Enter a valid IPv4 or IPv6 address.",
  ipv6: "Enter a valid IPv4 or IPv6 address.",
};

function isDateError(error: ErrorObject): boolean {
  const name = schemaName(error);
  return name === "DateYMD" || name === "DateDMY" || (error.keyword === "format" && error.params.format === "date");
}

/** Messages for a pattern by the named schema it belongs to; others name the pattern. */
const PATTERN_MESSAGES = new Map([
  ["DateYMD", "Date must be in YYYY-MM-DD format."],
  ["DateDMY", "Date must be in DD-MM-YYYY format."],
  ["Alpha3CountryCode", "Invalid country code: use ISO 3166-1 alpha-3, e.g. IND."],
  ["DecimalString", "Must be a decimal string, e.g. 100.50."],
]);

type Params = Record<string, unknown>;

/** The field message of each keyword, from Ajv's params (and the error, for the schema a pattern belongs to). */
const KEYWORD_MESSAGES = new Map<string, (p: Params, error: ErrorObject) => string>([
  ["required", () => REQUIRED_MESSAGE],
  ["type", (p) => `Must be of type ${String(p.type)}.`],
  ["format", (p) => FORMAT_MESSAGES[String(p.format)] ?? `Must be a valid ${String(p.format)}.`],
  [
    "pattern",
    (p, error) => PATTERN_MESSAGES.get(schemaName(error)) ?? `Has an invalid format (expected ${String(p.pattern)}).`,
  ],
  [
    "minLength",
    (p) =>
      p.limit === 1 ? "This field may not be blank." : `Ensure this field has at least ${String(p.limit)} characters.`,
  ],
  ["maxLength", (p) => `Ensure this field has no more than ${String(p.limit)} characters.`],
  ["minimum", (p) => `Ensure this value is greater than or equal to ${String(p.limit)}.`],
  ["maximum", (p) => `Ensure this value is less than or equal to ${String(p.limit)}.`],
  ["enum", (p) => `Must be one of: ${(p.allowedValues as unknown[]).join(", ")}.`],
  ["const", (p) => `Must be ${String(p.allowedValue)}.`],
  ["additionalProperties", () => "Unknown field."],
  ["not", () => "This value is not allowed here."],
]);

/** The message of one field error: the keyword's, else Ajv's own. */
export function messageOf(error: ErrorObject): string {
  const message = KEYWORD_MESSAGES.get(error.keyword);
  return message ? message(error.params as Params, error) : `${error.message ?? "Invalid value"}.`;
}

/** The codes a malformed field would prefer, most precise first; the operation's enum picks among them. */
function preferredCodes(error: ErrorObject, field: string): ErrCode[] {
  if (error.keyword === "required") return ["REQ_FIELD_MISSING"];
  const leaf = field.split(".").pop() ?? field;
  if (schemaName(error) === "Alpha3CountryCode" || leaf === "alpha_3_country_code") return ["REQ_INVALID_COUNTRY"];
  if (leaf === "customer_id") return ["INPUT_INVALID_PARAMETER", "INPUT_MALFORMED", "USR_NOT_FOUND", "USR_UNVERIFIED"];
  if (leaf === "payout_id") return ["PAYOUT_INVALID_PAYOUT_ID"];
  if (leaf === "bank_id") return ["BANK_NOT_FOUND"];
  if (isDateError(error)) return ["INPUT_INVALID_DATE_FORMAT", "INPUT_MALFORMED"];
  return ["INPUT_MALFORMED"];
}

/** First preferred code the operation lists; else INPUT_MALFORMED if listed; else UNKNOWN_ERROR. */
export function pickCode(preferred: readonly ErrCode[], allowed: ReadonlySet<string> | undefined): ErrCode {
  if (!allowed) return preferred[0] ?? "UNKNOWN_ERROR";
  for (const code of preferred) if (allowed.has(code)) return code;
  if (allowed.has("INPUT_MALFORMED")) return "INPUT_MALFORMED";
  return "UNKNOWN_ERROR";
}

/** Ajv errors of one request part → the 400 answer, or undefined when nothing is left after pruning. */
export function toApiError(
  rawErrors: ErrorObject[],
  allowed: ReadonlySet<string> | undefined,
  ignoredSchemaPaths: readonly string[] = [],
): ApiError | undefined {
  const errors = pruneAlternatives(rawErrors, ignoredSchemaPaths);
  if (errors.length === 0) return undefined;
  const fields: Record<string, string[]> = {};
  let first: { error: ErrorObject; field: string } | undefined;
  let missing: string[] = [];
  for (const error of errors) {
    const field = fieldOf(error);
    const message = messageOf(error);
    const list = (fields[field] ??= []);
    if (!list.includes(message)) list.push(message);
    if (error.keyword === "required") missing.push(field);
    first ??= { error, field };
  }
  missing = [...new Set(missing)];
  if (missing.length > 0) {
    const code = pickCode(["REQ_FIELD_MISSING"], allowed);
    return new ApiError(
      400,
      code,
      `Missing required field${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`,
      fields,
    );
  }
  const { error, field } = first!;
  const code = pickCode(preferredCodes(error, field), allowed);
  const message =
    code === "REQ_INVALID_COUNTRY" ? "Invalid country code" : `Invalid value for ${field}: ${messageOf(error)}`;
  return new ApiError(400, code, message, fields);
}
