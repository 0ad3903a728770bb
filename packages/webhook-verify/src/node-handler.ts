import type { IncomingMessage, ServerResponse } from "node:http";
import {
  answer,
  type Answer,
  createDeliveryProcessor,
  type WebhookEventHandler,
  type WebhookHandlerOptions,
} from "./delivery.js";
import type { WebhookEvent } from "./events.js";
import type { Inbox } from "./inbox.js";

/** A Node.js `(req, res)` handler: node:http, Express, Fastify's raw handlers. */
export type NodeWebhookHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

type ReceivedRequest = IncomingMessage & { body?: unknown };

const CONSUMED_HINT =
  "the signature covers the raw bytes. Mount the webhook route before express.json() (or any JSON body parser), " +
  'or give it express.raw({ type: "application/json" })';

/** Why the raw body can no longer be read, or undefined when it can. */
function consumedBody(req: ReceivedRequest): string | undefined {
  if (!req.readableEnded && !req.readableDidRead) return undefined;
  return typeof req.body === "object" && req.body !== null
    ? `req.body was already parsed into an object by a body parser: ${CONSUMED_HINT}`
    : `the request body was already read by earlier middleware: ${CONSUMED_HINT}`;
}

/**
 * The body, or undefined once it exceeds `limit` bytes. A body declared too large is not read at all:
 * the 413 closes the connection instead of draining it, so a flood of large junk costs no reading.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"]) > limit) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return; // keep draining, stop keeping
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      tooLarge = true;
      chunks.length = 0;
      resolve(undefined);
    });
    req.on("end", () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.readableEnded) reject(new Error("the sender closed the connection before the whole body arrived"));
    });
  });
}

function send(res: ServerResponse, { status, body, headers }: Answer): void {
  // After a 413 the rest of the body is not wanted: closing beats reading megabytes to keep the connection.
  const close = status === 413 ? { connection: "close" } : undefined;
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...headers,
    ...close,
  });
  res.end(body);
}

/**
 * A webhook endpoint as a Node.js `(req, res)` handler for node:http and
 * Express. It reads the raw body itself (up to `maxBodyBytes`, default
 * 256 KB: larger gets 413), so mount it before any JSON body parser. Answers
 * like `createWebhookHandler`: 200 once verified and claimed, then
 * `onEvent` runs; 401/400 with `{ "error": CODE }`; duplicates 200; 405.
 * With `inbox` and no `onEvent`: 200 once the event is stored in the inbox.
 *
 * @example
 * const inbox = createInbox({ store: redisInbox(redis), handler: async (event) => refreshRecord(event.id) });
 * inbox.start();
 * app.post("/webhooks/exchange", createNodeWebhookHandler({ apiKey, apiSecret, inbox }));
 *
 * @example
 * const app = express();
 * app.post("/webhooks/exchange", createNodeWebhookHandler({ apiKey, apiSecret }, async (event) => {
 *   if (event.known && event.type === "CUSTOMER") await refreshCustomer(event.id);
 * }));
 * app.use(express.json()); // after the webhook route
 */
export function createNodeWebhookHandler(
  options: WebhookHandlerOptions & { strict: true },
  onEvent: WebhookEventHandler<WebhookEvent>,
): NodeWebhookHandler;
export function createNodeWebhookHandler(
  options: WebhookHandlerOptions,
  onEvent: WebhookEventHandler,
): NodeWebhookHandler;
export function createNodeWebhookHandler(options: WebhookHandlerOptions & { inbox: Inbox }): NodeWebhookHandler;
export function createNodeWebhookHandler(
  options: WebhookHandlerOptions,
  onEvent?: WebhookEventHandler<WebhookEvent> | WebhookEventHandler,
): NodeWebhookHandler {
  const deliver = createDeliveryProcessor(options, onEvent);
  const handle = async (req: ReceivedRequest, res: ServerResponse): Promise<void> => {
    // A raw body left by express.raw() or express.text() is used as is.
    const given = req.body instanceof Uint8Array || typeof req.body === "string" ? req.body : undefined;
    // Only a POST is read: anything else gets 405 whatever became of its body.
    const consumed = req.method === "POST" && given === undefined ? consumedBody(req) : undefined;
    if (consumed !== undefined) {
      deliver.report(new Error(`@exchange-kit/webhook-verify: cannot verify the webhook: ${consumed}`));
      return send(res, answer(500, { error: "RAW_BODY_UNAVAILABLE", message: consumed }));
    }
    send(res, await deliver(req.method, req.headers, async (limit) => given ?? readBody(req, limit)));
  };
  // node:http ignores the promise a handler returns: a rejection would crash the process, so none escapes.
  return (req, res) =>
    handle(req, res).catch((error: unknown) => {
      deliver.report(error);
      if (!res.headersSent) send(res, answer(500, { error: "INTERNAL_ERROR" }));
      else res.destroy();
    });
}
