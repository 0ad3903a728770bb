import express from "express";
import { createClient } from "redis";
import { createDeduplicator, createWebhookRouter, WebhookVerificationError } from "@exchange-kit/webhook-verify";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";
import { redisStore } from "@exchange-kit/webhook-verify/redis";

const { EXCHANGE_API_KEY, EXCHANGE_API_SECRET, REDIS_URL, PORT = "3000" } = process.env;
if (!EXCHANGE_API_KEY || !EXCHANGE_API_SECRET || !REDIS_URL) {
  throw new Error("Set EXCHANGE_API_KEY, EXCHANGE_API_SECRET and REDIS_URL");
}

// One Redis shared by every instance of this receiver: each event is handled once across all of them.
export const redis = await createClient({ url: REDIS_URL })
  .on("error", (error: Error) => console.error("redis:", error.message)) // without a listener, an outage crashes the process
  .connect();
// Done marks must survive a Redis restart (appendonly yes): refuse to start on a Redis that would forget them.
const store = redisStore(redis, { persistence: "require" });
await store.persistence;

// Handlers by event, each event's metadata typed from the catalog; they run after the 200 went out, in the
// order registered. An event says that something changed: fetch the record by its id.
export const router = createWebhookRouter()
  .onAny((event) => console.log(`${event.type.toLowerCase()} ${event.id} is ${event.event}`))
  .on("PAYOUT", "SUCCESS", (event) => {
    console.log(`payout ${event.id} (${event.metadata.client_reference_id}) paid, UTR ${event.metadata.utr}`);
  })
  .on("PAYOUT", "IN_REVIEW", (event) => {
    if (event.metadata.reason === "Request for information") {
      console.log(`payout ${event.id} needs information: ${event.metadata.rfi_link}`);
    }
  })
  .on("PAYIN", "SUCCESS", (event) => console.log(`payin ${event.id} paid: ${event.metadata.transaction_hash}`))
  .on("CUSTOMER", "FAILED", (event) => console.log(`customer ${event.id} failed KYC: ${event.metadata.failure_reason}`))
  .onUnknown((event) => console.warn(`new kind of event ${event.type} ${event.event} (${event.unknownReason})`));

export const app = express();

// The webhook route reads the raw body itself: mount it before express.json().
app.post(
  "/webhooks/exchange",
  createNodeWebhookHandler(
    {
      apiKey: EXCHANGE_API_KEY,
      apiSecret: EXCHANGE_API_SECRET,
      deduplicator: createDeduplicator({ store }),
      // A rejected delivery (wrong signature, stale timestamp: someone else's request, or a secret out of date)
      // lands here without an event: one line with its code and message. A handler that throws stops the
      // handlers after it, and lands here with its event: that one deserves the stack.
      onError: (error, event) => {
        if (error instanceof WebhookVerificationError) console.warn(`webhook rejected: ${error.code}: ${error.message}`);
        else console.error(`webhook ${event ? `${event.type} ${event.event} ${event.id}` : "delivery"} failed:`, error);
      },
    },
    router,
  ),
);

app.use(express.json()); // the rest of the app's JSON routes go after this

export const server = app.listen(Number(PORT), "127.0.0.1");
