import { trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { createWebhookHandler, signTestWebhook } from "../dist/index.js";
const apiKey = "k", apiSecret = "s", now = Math.floor(Date.now() / 1000);
if (process.argv[2] === "provider") trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [{ onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} }] }));
const deliveries = await Promise.all(Array.from({ length: 2000 }, (_, i) => signTestWebhook({ apiKey, apiSecret, timestamp: now, event: { type: "PAYOUT", id: `c4b3a291-8f7e-4d6c-9b5a-${String(i).padStart(12, "0")}`, event: "SUCCESS", timestamp: "2026-03-01T10:55:02Z", metadata: { client_reference_id: `po-${i}` } } })));
const handle = createWebhookHandler({ apiKey, apiSecret, deduplicator: false, onError: () => {}, tracing: process.argv[3] !== "off" }, () => {});
for (let r = 0; r < 40; r++) { for (const { body, headers } of deliveries) { const res = await handle(new Request("http://127.0.0.1/hooks", { method: "POST", headers, body })); if (res.status !== 200) throw new Error(); } await new Promise((x) => setTimeout(x, 0)); }
