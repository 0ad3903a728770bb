import { canonicalize, computeSignature } from "@exchange-kit/signing";
import type { Middleware } from "openapi-fetch";

/** Options of createSigningMiddleware. */
export interface SigningMiddlewareOptions {
  apiKey: string;
  apiSecret: string;
  /** Sign even where `window` and `document` exist (the secret would be readable there). */
  dangerouslyAllowBrowser?: boolean;
}

/**
 * openapi-fetch middleware that signs every request: X-API-KEY, X-TIMESTAMP
 * (now, per request) and X-SIGNATURE over the canonical body (`{}` without a
 * body). The body sent is always the exact string signed: give the client
 * `bodySerializer: canonicalize` (from @exchange-kit/signing) and it is used as
 * is; any other JSON body is re-canonicalized before it is sent. Query
 * parameters are not signed.
 *
 * @example
 * import createClient from "openapi-fetch";
 * import { canonicalize } from "@exchange-kit/signing";
 * const api = createClient<paths>({ baseUrl, bodySerializer: canonicalize });
 * api.use(createSigningMiddleware({ apiKey, apiSecret }));
 */
export function createSigningMiddleware(options: SigningMiddlewareOptions): Middleware {
  const { apiKey, apiSecret, dangerouslyAllowBrowser } = options;
  return {
    async onRequest({ request }) {
      const text = request.body === null ? "" : await request.clone().text();
      let body: string | undefined;
      if (text !== "") {
        body = canonicalize(JSON.parse(text) as unknown);
      }
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = await computeSignature({
        apiKey,
        apiSecret,
        timestamp,
        canonicalBody: body ?? "{}",
        dangerouslyAllowBrowser: dangerouslyAllowBrowser === true,
      });
      const signed = body !== undefined && body !== text ? new Request(request, { body }) : request;
      signed.headers.set("X-API-KEY", apiKey);
      signed.headers.set("X-TIMESTAMP", timestamp);
      signed.headers.set("X-SIGNATURE", signature);
      if (body !== undefined) signed.headers.set("Content-Type", "application/json");
      return signed;
    },
  };
}
