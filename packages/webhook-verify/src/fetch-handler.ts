import {
  answer,
  type Answer,
  createDeliveryProcessor,
  DEFAULT_MAX_BODY_BYTES,
  startAfterAnswer,
  type WebhookEventHandler,
  type WebhookHandlerOptions,
} from "./delivery.js";
import type { WebhookEvent } from "./events.js";

/** What runtimes pass beside the request to keep work alive after the response (Workers, Vercel, Deno Deploy). */
export interface WebhookContext {
  waitUntil?(promise: Promise<unknown>): void;
}

/** A Fetch-standard handler: Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers. */
export type FetchWebhookHandler = (request: Request, context?: WebhookContext) => Promise<Response>;

/** The body, or undefined once it exceeds `limit` bytes (reading stops there). */
async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get("content-length")) > limit) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body !== null) {
    for (const reader = request.body.getReader(); ; ) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  }
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

function respond({ status, body }: Answer, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * A webhook endpoint as a Fetch handler. It answers 200 as soon as a
 * delivery is verified and claimed, then runs `onEvent` (kept alive with
 * `context.waitUntil` or the `waitUntil` option where the runtime has one).
 * Rejected deliveries get 401 (or 400 for a bad body) with `{ "error": CODE }`,
 * duplicates 200 without `onEvent`, other methods 405.
 *
 * @example
 * const handleWebhook = createWebhookHandler({ apiKey, apiSecret }, async (event) => {
 *   if (event.known && event.type === "PAYOUT") await updatePayout(event.id);
 * });
 * app.post("/webhooks/exchange", (c) => handleWebhook(c.req.raw)); // Hono
 * export const POST = (request: Request) => handleWebhook(request); // Next.js route handler
 */
export function createWebhookHandler(
  options: WebhookHandlerOptions & { strict: true },
  onEvent: WebhookEventHandler<WebhookEvent>,
): FetchWebhookHandler;
export function createWebhookHandler(options: WebhookHandlerOptions, onEvent: WebhookEventHandler): FetchWebhookHandler;
export function createWebhookHandler(
  options: WebhookHandlerOptions,
  onEvent: WebhookEventHandler<WebhookEvent> | WebhookEventHandler,
): FetchWebhookHandler {
  const deliver = createDeliveryProcessor(options, onEvent);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (request, context) => {
    if (request.method !== "POST") return respond(answer(405, { error: "METHOD_NOT_ALLOWED" }), { allow: "POST" });
    const body = await readBody(request, limit);
    if (body === undefined) return respond(answer(413, { error: "PAYLOAD_TOO_LARGE" }));
    const outcome = await deliver(body, request.headers);
    if (outcome.work !== undefined) {
      startAfterAnswer(outcome.work, (task) => (context?.waitUntil ? context.waitUntil(task) : options.waitUntil?.(task)));
    }
    return respond(outcome);
  };
}
