// Runs in the webhook-verify app after the app added zod itself: the optional "./zod" entry works with the
// app's own zod (the packages no longer install one).
import { signTestWebhook } from "@exchange-kit/webhook-verify";
import { verifyWebhookWithZod } from "@exchange-kit/webhook-verify/zod";

const apiKey = "release-check-key";
const apiSecret = "release-check-secret";
const event = {
  type: "BANK",
  id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  event: "VERIFIED",
  timestamp: "2026-03-01T09:30:05Z",
  metadata: {},
};
const delivery = await signTestWebhook({ event, apiKey, apiSecret });
const verified = await verifyWebhookWithZod({ body: delivery.body, headers: delivery.headers, apiKey, apiSecret });
process.stdout.write(`${JSON.stringify({ zod: `${verified.type} ${verified.event} ${verified.id}` })}\n`);
