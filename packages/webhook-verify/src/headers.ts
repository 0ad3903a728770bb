/**
 * Request headers in any of the shapes frameworks hand out: a Fetch
 * `Headers`, Node's `IncomingHttpHeaders` (lowercase names, values may be
 * string arrays) or a plain object with names in any case.
 */
export type WebhookHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | number | undefined };

/** The value of a header, `name` in lowercase; repeated values are joined the way `Headers#get` joins them. */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, unknown>;
  let value = record[name];
  if (value === undefined) {
    // Plain objects built by hand often keep the case of the documentation (X-SIGNATURE).
    for (const key in record) {
      if (key.toLowerCase() === name) {
        value = record[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) return value.join(", ");
  return typeof value === "string" ? value : undefined;
}
