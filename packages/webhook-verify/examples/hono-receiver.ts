import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createWebhookHandler } from "@exchange-kit/webhook-verify";

const { EXCHANGE_API_KEY, EXCHANGE_API_SECRET, PORT = "3000" } = process.env;
if (!EXCHANGE_API_KEY || !EXCHANGE_API_SECRET) throw new Error("Set EXCHANGE_API_KEY and EXCHANGE_API_SECRET");

// Verifies, deduplicates (in memory: one process), answers 200, then calls back.
const handleWebhook = createWebhookHandler({ apiKey: EXCHANGE_API_KEY, apiSecret: EXCHANGE_API_SECRET }, async (event) => {
  if (!event.known) {
    console.warn(`new kind of event ${event.type} ${event.event}`);
  } else if (event.type === "CUSTOMER" && event.event === "FAILED") {
    console.log(`customer ${event.id} failed KYC: ${event.metadata.failure_reason}`);
  } else {
    console.log(`${event.type.toLowerCase()} ${event.id} is ${event.event}`);
  }
});

export const app = new Hono();
// On Cloudflare Workers, pass c.executionCtx as well, so that the callback outlives the response.
app.post("/webhooks/exchange", (c) => handleWebhook(c.req.raw));

export const server = serve({ fetch: app.fetch, port: Number(PORT), hostname: "127.0.0.1" });
