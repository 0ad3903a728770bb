import { canonicalize, computeSignature } from "@exchange-kit/signing";
import type { Middleware } from "openapi-fetch";
import { createRedactor } from "./redact.js";
import { refuseRedirect } from "./redirect.js";

/** Options of createSigningMiddleware. */
export interface SigningMiddlewareOptions {
  apiKey: string;
  apiSecret: string;
  /** Sign even where `window` and `document` exist (the secret would be readable there). */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/**
 * openapi-fetch middleware that signs every request: X-API-KEY, X-TIMESTAMP
 * (now, per request) and X-SIGNATURE over the canonical body (`{}` without a
 * body). The body sent is always the exact string signed: give the client
 * `bodySerializer: canonicalize` (from @exchange-kit/signing) and it is used as
 * is; any other JSON body is re-canonicalized before it is sent. Query
 * parameters are not signed. Signed requests never follow a redirect: each is sent with `redirect: "manual"`, and a
 * redirect answer rejects the call with ExchangeRedirectError (the signed headers would go wherever it points).
 *
 * @example
 * import createClient from "openapi-fetch";
 * import { canonicalize } from "@exchange-kit/signing";
 * const api = createClient<paths>({ baseUrl, bodySerializer: canonicalize });
 * api.use(createSigningMiddleware({ apiKey, apiSecret }));
 */
export function createSigningMiddleware(options: SigningMiddlewareOptions): Middleware {
  const { apiKey, apiSecret, dangerouslyAllowBrowser } = options;
  const redact = createRedactor([apiKey, apiSecret]);
  return {
    async onRequest({ request }) {
      const text = request.body === null ? "" : await request.clone().text();
      // JSON.parse, not canonicalizeText(text): the text comes from a serializer of JS values (canonicalize, left
      // unchanged here, or JSON.stringify, which JSON.parse reverses exactly), so the body is canonicalize(value)
      // whichever serializer wrote it. canonicalizeText differs only on integer literals past 2^53 (it keeps a
      // bigint serializer's digits, but writes JSON.stringify's 1e16 as an integer where canonicalize writes
      // 1e+16), and adds 1.2 KB gzipped to the client bundle.
      const body = text === "" ? undefined : canonicalize(JSON.parse(text) as unknown);
      const headers = await signatureHeaders(apiKey, apiSecret, body, dangerouslyAllowBrowser === true);
      // openapi-fetch makes every request with redirect: "follow".
      const signed = new Request(
        request,
        body !== undefined && body !== text ? { body, redirect: "manual" } : { redirect: "manual" },
      );
      for (const name in headers) signed.headers.set(name, headers[name]!);
      return signed;
    },
    onResponse({ request, response, schemaPath }) {
      refuseRedirect(
        response,
        request.url,
        { operationId: undefined, method: request.method, path: schemaPath },
        1,
        redact.text,
      );
      return undefined;
    },
  };
}

/**
 * The headers that sign a request, timestamped now: X-API-KEY, X-TIMESTAMP, X-SIGNATURE over `body` (the
 * canonical JSON sent, or `{}` without a body), and Content-Type when there is a body.
 */
export async function signatureHeaders(
  apiKey: string,
  apiSecret: string,
  body: string | undefined,
  dangerouslyAllowBrowser: boolean,
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    "X-API-KEY": apiKey,
    "X-TIMESTAMP": timestamp,
    "X-SIGNATURE": await computeSignature({
      apiKey,
      apiSecret,
      timestamp,
      canonicalBody: body ?? "{}",
      dangerouslyAllowBrowser,
    }),
  };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return headers;
}
