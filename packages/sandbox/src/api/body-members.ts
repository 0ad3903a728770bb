// Reading a body's members beyond what the schema checks: blank strings count as absent.
import { missingFields } from "../http/api-error.js";

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
