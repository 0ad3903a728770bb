// Credentials out of every text a server or a proxy sends back: an error's message, body, field errors and
// headers are built from redacted copies, so no view of the error (message, toString, JSON.stringify,
// util.inspect, the stack) can show them.

export const REDACTED = "[redacted]";

// An HMAC-SHA256 signature in Base64 (32 bytes: 43 characters and one "="), wherever it appears: a proxy may
// echo the X-SIGNATURE of any request, not only of the one that failed.
const SIGNATURE = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{43}=(?![A-Za-z0-9+/=])/g;
// Header names whose values are credentials, whatever else happens to be in them.
const SECRET_HEADER = /^x-(api-key|signature)$/i;

/** Replaces credentials in strings and in copies of JSON values and headers. */
export interface Redactor {
  text(value: string): string;
  /** A copy of a JSON value (envelope, field errors) with every string redacted. */
  value<T>(value: T): T;
  headers(headers: Headers): Headers;
}

/**
 * A redactor for the API key and secret (and any Base64 HMAC-SHA256 signature).
 *
 * @example
 * createRedactor(["key_live_1", "s3cret"]).text("bad key key_live_1"); // "bad key [redacted]"
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const values = secrets.filter((s) => s.length > 0);
  const text = (input: string): string => {
    let out = input;
    for (const secret of values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out.replace(SIGNATURE, REDACTED);
  };
  const value = (input: unknown, depth = 0): unknown => {
    if (typeof input === "string") return text(input);
    if (input === null || typeof input !== "object" || depth > 32) return input;
    if (Array.isArray(input)) return input.map((v) => value(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) out[text(k)] = SECRET_HEADER.test(k) ? REDACTED : value(v, depth + 1);
    return out;
  };
  return {
    text,
    value: <T>(input: T) => value(input) as T,
    headers(input) {
      const out = new Headers();
      input.forEach((v, k) => {
        out.set(k, SECRET_HEADER.test(k) ? REDACTED : text(v));
      });
      return out;
    },
  };
}
