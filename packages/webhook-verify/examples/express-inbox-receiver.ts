import express from "express";
import { createClient } from "redis";
import { createInbox, EventParkedError } from "@exchange-kit/webhook-verify";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";
import { redisInbox } from "@exchange-kit/webhook-verify/redis";

const { EXCHANGE_API_KEY, EXCHANGE_API_SECRET, REDIS_URL, PORT = "3000" } = process.env;
if (!EXCHANGE_API_KEY || !EXCHANGE_API_SECRET || !REDIS_URL) {
  throw new Error("Set EXCHANGE_API_KEY, EXCHANGE_API_SECRET and REDIS_URL");
}

export const redis = await createClient({ url: REDIS_URL })
  .on("error", (error: Error) => console.error("redis:", error.message)) // without a listener, an outage crashes the process
  .connect();
// Accepted events live in Redis until handled: refuse to start on a Redis that would lose them on a restart.
const store = redisInbox(redis, { persistence: "require" });
await store.persistence;

// Each delivery is stored here before its 200. This instance, another one, or this one restarted after a
// crash runs the handler; a failure is retried with backoff, then parked for inbox.replay(key).
// Make it idempotent (an upsert keyed on event.id and event.event): an event may run more than once.
export const inbox = createInbox({
  store,
  handler: async (event, { attempt }) => {
    if (!event.known) {
      console.warn(`new kind of event ${event.type} ${event.event} (${event.unknownReason})`);
      return;
    }
    // An event says that something changed: fetch the record by its id, update yours.
    console.log(`${event.type.toLowerCase()} ${event.id} is ${event.event} (run ${attempt})`);
  },
  onError: (error, event) => {
    if (error instanceof EventParkedError) console.error(error.message);
    else console.error(`webhook ${event ? `${event.type} ${event.event} ${event.id}` : "event"} failed (retried with backoff):`, error);
  },
});
inbox.start();

export const app = express();
// The webhook route reads the raw body itself: mount it before express.json().
app.post(
  "/webhooks/exchange",
  createNodeWebhookHandler({ apiKey: EXCHANGE_API_KEY, apiSecret: EXCHANGE_API_SECRET, inbox }),
);
app.use(express.json()); // the rest of the app's JSON routes go after this

export const server = app.listen(Number(PORT), "127.0.0.1");

// On shutdown, stop taking events and let the running ones finish; the rest wait in Redis for the next start.
process.once("SIGTERM", () => {
  server.close();
  void inbox.stop().then(() => redis.close());
});
