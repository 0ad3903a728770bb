import {
  createDeliveryProcessor,
  type WebhookContext,
  type WebhookEventHandler,
  type WebhookHandlerOptions,
} from "./delivery.js";
import type { WebhookEvent } from "./events.js";
import type { Inbox } from "./inbox.js";

export type { WebhookContext };

/** A Fetch-standard handler: Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers. */
export type FetchWebhookHandler = (request: Request, context?: WebhookContext) => Promise<Response>;

/**
 * A webhook endpoint as a Fetch handler. It answers 200 as soon as a
 * delivery is verified and claimed, then runs `onEvent` (kept alive with
 * `context.waitUntil` or the `waitUntil` option where the runtime has one).
 * Rejected deliveries get 401 (or 400 for a bad body) with `{ "error": CODE }`,
 * duplicates 200 without `onEvent`, other methods 405. With `inbox` and no
 * `onEvent`, it answers 200 once the event is stored in the inbox.
 *
 * @example
 * const inbox = createInbox({ store: memoryInbox(), handler: async (event) => updateRecord(event.id) });
 * inbox.start();
 * const handleWebhook = createWebhookHandler({ apiKey, apiSecret, inbox });
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
export function createWebhookHandler(options: WebhookHandlerOptions & { inbox: Inbox }): FetchWebhookHandler;
export function createWebhookHandler(
  options: WebhookHandlerOptions,
  onEvent?: WebhookEventHandler<WebhookEvent> | WebhookEventHandler,
): FetchWebhookHandler {
  const deliver = createDeliveryProcessor(options, onEvent);
  return async (request, context) => {
    // The body, or undefined once it exceeds `limit` bytes (reading stops there).
    const read = async (limit: number): Promise<Uint8Array | undefined> => {
      if (Number(request.headers.get("content-length")) > limit) return undefined;
      const chunks: Uint8Array[] = [];
      const reader = request.body?.getReader();
      for (let size = 0; reader; ) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel();
          return undefined;
        }
        chunks.push(value);
      }
      return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
    };
    const { status, body, headers } = await deliver(request.method, request.headers, read, context);
    return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  };
}
