import { fail } from "./errors.js";

/** The raw body exactly as received. A Node `Buffer` is a `Uint8Array`. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** Rejects bodies that cannot be the raw bytes: a parsed object, or nothing at all. */
export function assertRawBody(body: unknown): asserts body is WebhookBody {
  if (typeof body === "string" || body instanceof Uint8Array || body instanceof ArrayBuffer) return;
  fail(
    "MALFORMED_BODY",
    `${body == null ? "no body" : "the body was parsed before verification"}: pass the raw body ` +
      "(string, Uint8Array or Buffer); in Express, mount the handler before express.json()",
  );
}

let decoder: TextDecoder | undefined;

/** The body as text. Invalid UTF-8 is an error rather than U+FFFD, which would change what is verified. */
export function bodyText(body: WebhookBody): string {
  if (typeof body === "string") return body;
  // ignoreBOM keeps a leading BOM in the text, so it is verified (and rejected) instead of silently dropped.
  decoder ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    return decoder.decode(body);
  } catch {
    return fail("MALFORMED_BODY", "the body is not valid UTF-8");
  }
}
