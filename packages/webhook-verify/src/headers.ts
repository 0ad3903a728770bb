import { fail } from "./errors.js";

/**
 * Request headers in any of the shapes frameworks hand out: a Fetch
 * `Headers`, Node's `IncomingHttpHeaders` (lowercase names, values may be
 * string arrays) or a plain object with names in any case.
 */
export type WebhookHeaders = Headers | { readonly [name: string]: string | readonly string[] | number | undefined };

/**
 * The value of a signature header, `name` in lowercase; repeated values are
 * joined the way `Headers#get` joins them. A missing header is MISSING_HEADER.
 */
export function requireHeader(headers: WebhookHeaders, name: "x-timestamp" | "x-signature"): string {
  let value =
    typeof (headers as Headers).get === "function"
      ? (headers as Headers).get(name)
      : (headers as Record<string, unknown>)[name];
  if (value === undefined) {
    // Plain objects built by hand often keep the case of the documentation (X-SIGNATURE).
    for (const key in headers) {
      if (key.toLowerCase() === name) {
        value = (headers as Record<string, unknown>)[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) value = value.join(", ");
  return typeof value === "string"
    ? value
    : fail("MISSING_HEADER", `no ${name.toUpperCase()} header: not a signed delivery, or a proxy dropped it`);
}
