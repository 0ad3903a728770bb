// app/api/webhooks/exchange/route.ts in a Next.js app (App Router).
import { createWebhookHandler } from "@exchange-kit/webhook-verify";

const handleWebhook = createWebhookHandler(
  { apiKey: process.env.EXCHANGE_API_KEY!, apiSecret: process.env.EXCHANGE_API_SECRET! },
  async (event) => {
    if (event.known && event.type === "BANK") console.log(`bank account ${event.id} is ${event.event}`);
  },
);

export const POST = (request: Request) => handleWebhook(request);
