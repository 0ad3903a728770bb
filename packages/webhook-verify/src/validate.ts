import {
  CATALOG,
  type MetadataRule,
  type MetadataRules,
  OPTIONAL_STRING,
  REQUEST_FOR_INFORMATION,
  STRING_OR_NULL,
} from "./catalog.js";
import { fail } from "./errors.js";
import type { ReceivedWebhookEvent, UnknownWebhookEvent, WebhookEvent } from "./events.js";

/**
 * Turns the parsed body of a verified delivery into an event: a catalog
 * event, an unknown one, or an INVALID_EVENT error. The default is the
 * built-in validator; `@exchange-kit/webhook-verify/zod` offers a zod one.
 */
export type EventValidator = (json: unknown, options: { strict: boolean }) => ReceivedWebhookEvent;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type JsonObject = { [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(problem: string): never {
  return fail("INVALID_EVENT", `not a webhook event: ${problem}`);
}

function breaks(rule: MetadataRule, value: unknown): boolean {
  if (typeof rule === "object") return !rule.includes(value as string);
  return typeof value !== "string" && !(rule === STRING_OR_NULL && value === null) && !(rule === OPTIONAL_STRING && value === undefined);
}

// The catalog as maps of rule lists: no prototype keys to guard against, and quick to walk.
const RULES = new Map(
  Object.entries(CATALOG).map(([type, events]) => [
    type,
    new Map(Object.entries(events as Record<string, MetadataRules>).map(([event, rules]) => [event, Object.entries(rules)])),
  ]),
);

/** Why the (type, event) pair is not in the catalog, or undefined when it is. */
export function unlisted(type: string, event: string): string | undefined {
  const events = RULES.get(type);
  if (events?.has(event)) return undefined;
  return `${events ? `${type} event ${event}` : `type ${type}`} is not in the catalog`;
}

/** Why the event does not match the catalog, or undefined when it is a catalog event. */
export function catalogProblem(type: string, event: string, metadata: JsonObject): string | undefined {
  const rules = RULES.get(type)?.get(event);
  if (rules === undefined) return unlisted(type, event);
  for (const [key, rule] of rules) {
    if (breaks(rule, metadata[key])) {
      const expected = typeof rule === "object" ? `one of ${rule.join(", ")}` : `a string${rule === STRING_OR_NULL ? " or null" : ""}`;
      return `${type} ${event}: metadata.${key} must be ${expected}, got ${JSON.stringify(metadata[key])}`;
    }
  }
  if (event === "IN_REVIEW" && metadata.reason === REQUEST_FOR_INFORMATION && metadata.rfi_link === undefined) {
    return `${type} ${event}: metadata.rfi_link is required with this reason`;
  }
  return undefined;
}

/** The envelope every event has, whatever its type: anything else is not a webhook event at all. */
export function checkEnvelope(json: unknown): asserts json is JsonObject & Omit<UnknownWebhookEvent, "known" | "unknownReason"> {
  if (!isObject(json)) invalid("the body is not a JSON object");
  const { type, id, event, timestamp, metadata } = json;
  if (typeof type !== "string") invalid("type must be a string");
  if (typeof id !== "string" || !UUID.test(id)) invalid("id must be a UUID");
  if (typeof event !== "string") invalid("event must be a string");
  if (typeof timestamp !== "string") invalid("timestamp must be a string");
  if (!isObject(metadata)) invalid("metadata must be an object");
}

/** Marks a checked envelope as a catalog event, or as unknown (strict: throws) with the reason. */
export function classify(json: JsonObject, problem: string | undefined, strict: boolean): ReceivedWebhookEvent {
  if (problem === undefined) {
    json.known = true;
    return json as unknown as WebhookEvent;
  }
  if (strict) invalid(problem);
  json.known = false;
  json.unknownReason = problem;
  return json as unknown as UnknownWebhookEvent;
}

/** The built-in validator: the envelope, then the catalog's required metadata keys and values. */
export const validateEvent: EventValidator = (json, { strict }) => {
  checkEnvelope(json);
  return classify(json, catalogProblem(json.type, json.event, json.metadata), strict);
};
