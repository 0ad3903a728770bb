import { CATALOG } from "./catalog.js";
import { fail } from "./errors.js";
import type { ReceivedWebhookEvent, UnknownWebhookEvent, WebhookEvent } from "./events.js";

/**
 * Turns the parsed body of a verified delivery into an event: a catalog
 * event, an unknown one, or an INVALID_EVENT error. The default is the
 * built-in validator; `@exchange-kit/webhook-verify/zod` offers a zod one.
 */
export type EventValidator = (json: unknown, options: { strict: boolean }) => ReceivedWebhookEvent;

const UUID = /^[\da-f]{8}(-[\da-f]{4}){3}-[\da-f]{12}$/i;

type JsonObject = { [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(problem: string): never {
  return fail("INVALID_EVENT", `not a webhook event: ${problem}`);
}

/** Why the (type, event) pair is not in the catalog, or undefined when it is. */
export function unlisted(type: string, event: string): string | undefined {
  if (!Object.hasOwn(CATALOG, type)) return `type ${type} is not in the catalog`;
  if (!Object.hasOwn(CATALOG[type]!, event)) return `${type} event ${event} is not in the catalog`;
  return undefined;
}

/** Why the event does not match the catalog, or undefined when it is a catalog event. */
function catalogProblem(type: string, event: string, metadata: JsonObject): string | undefined {
  const notListed = unlisted(type, event);
  if (notListed !== undefined) return notListed;
  const rules = CATALOG[type]![event]!;
  for (const key in rules) {
    const rule = rules[key]!;
    const value = metadata[key];
    if ((value === undefined && rule.optional) || (value === null && rule.nullable)) continue;
    // What the value must be, if it is not: one of the listed values, else any string.
    const expected = rule.values
      ? !rule.values.includes(value as string) && `one of ${rule.values.join(", ")}`
      : typeof value !== "string" && `a string${rule.nullable ? " or null" : ""}`;
    if (expected) return `${type} ${event}: metadata.${key} must be ${expected}, got ${JSON.stringify(value)}`;
  }
  // Keys the spec requires only while another key holds a value (its if/then), e.g. rfi_link for a request for information.
  for (const key in rules) {
    const when = rules[key]!.requiredWhen;
    if (when && metadata[when.key] === when.value && metadata[key] === undefined) {
      return `${type} ${event}: metadata.${key} is required with this ${when.key}`;
    }
  }
  return undefined;
}

/** The envelope every event has, whatever its type: anything else is not a webhook event at all. */
export function checkEnvelope(
  json: unknown,
): asserts json is JsonObject & Omit<UnknownWebhookEvent, "known" | "unknownReason"> {
  if (!isObject(json)) invalid("the body is not a JSON object");
  // In this order: type, id (a UUID), event and timestamp are strings; metadata is an object.
  for (const key of ["type", "id", "event", "timestamp", "metadata"]) {
    const value = json[key];
    if (key === "metadata" ? !isObject(value) : typeof value !== "string" || (key === "id" && !UUID.test(value))) {
      invalid(`${key} must be ${key === "metadata" ? "an object" : key === "id" ? "a UUID" : "a string"}`);
    }
  }
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
