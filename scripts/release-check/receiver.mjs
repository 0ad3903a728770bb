// Runs inside the app that installed only @exchange-kit/webhook-verify: a webhook receiver as its README
// builds one (verified, deduplicated), printing one JSON line per request and per handled event.
import { createServer } from "node:http";
import { createDeduplicator, memoryStore } from "@exchange-kit/webhook-verify";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";

const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const handler = createNodeWebhookHandler(
  {
    apiKey: process.env.EXCHANGE_API_KEY,
    apiSecret: process.env.EXCHANGE_API_SECRET,
    deduplicator: createDeduplicator({ store: memoryStore(), ttlSeconds: 3600 }),
  },
  (event) => print({ handled: `${event.type} ${event.event} ${event.id}` }),
);
const server = createServer((req, res) => {
  res.on("finish", () => print({ request: res.statusCode }));
  handler(req, res);
});
server.listen(0, "127.0.0.1", () => print({ listening: `http://127.0.0.1:${server.address().port}/webhooks` }));
// Stops by itself: the release check ends it, and it never outlives ten minutes.
setTimeout(() => process.exit(3), 600_000).unref();
process.on("SIGTERM", () => server.close(() => process.exit(0)));
