// Reading a body's members beyond what the schema checks: blank strings count as absent.
import { missingFields } from "../domain/api-error.js";

/** A non-empty string member of the body, or undefined. */
export function text<B extends object>(body: B, key: keyof B & string): string | undefined {
  const value: unknown = body[key];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Throws REQ_FIELD_MISSING naming every absent (or blank) member. */
export function requireMembers<B extends object>(body: B, keys: ReadonlyArray<keyof B & string>): void {
  const missing = keys.filter((key) => {
    const value: unknown = body[key];
    return value === undefined || value === null || value === "";
  });
  if (missing.length > 0) throw missingFields(missing);
}

/**
 * Adds an error for each member of `body` not in `allowed`. The error is defined as an own member, never
 * assigned: `errors["__proto__"] = …` would set the object's prototype instead, and a `__proto__` member (which
 * parseJson keeps as an own member, as JSON.parse does) would pass silently while every other unknown one is a 400.
 *
 * @example
 * const errors = {};
 * addUnknownMembers(parseJson('{"__proto__":{},"seconds":1}') as object, ["seconds"], "Unknown member.", errors);
 * Object.keys(errors); // ["__proto__"]
 */
export function addUnknownMembers(
  body: object,
  allowed: readonly string[],
  message: string,
  errors: Record<string, string[]>,
): void {
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name))
      Object.defineProperty(errors, name, { value: [message], enumerable: true, writable: true, configurable: true });
  }
}
