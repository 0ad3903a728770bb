// The demo's setup: the embedded sandbox, a webhook receiver as a fintech backend would run it (webhook-verify),
// and the typed client registering that receiver's URL.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createExchangeClient } from "@exchange-kit/client";
import { createSandbox } from "@exchange-kit/sandbox";
import { createDeduplicator, memoryStore } from "@exchange-kit/webhook-verify";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";
import { Receiver } from "./receiver.js";
import { type DemoState, defineStep } from "./step.js";

const webhookUrlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
const organizationOf = (state: DemoState) => state.sandbox.organizations[0]!;

async function startReceiver(state: DemoState): Promise<Server> {
  const org = organizationOf(state);
  state.receiver = new Receiver();
  const handler = createNodeWebhookHandler(
    {
      apiKey: org.apiKey,
      apiSecret: org.apiSecret,
      deduplicator: createDeduplicator({ store: memoryStore({ maxEntries: 10_000 }), ttlSeconds: 3600 }),
    },
    state.receiver.onEvent,
  );
  state.server = createServer(handler);
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  return state.server;
}

export const SETUP_STEPS = [
  defineStep({
    name: "start the sandbox (embedded, in memory)",
    action: async (s) =>
      (s.sandbox = await createSandbox({ autoProgressMs: 100, webhookRetry: { initialDelayMs: 100 } })),
    check: (sandbox) => sandbox.url,
  }),
  defineStep({
    name: "start the webhook receiver (webhook-verify)",
    action: startReceiver,
    check: webhookUrlOf,
  }),
  defineStep({
    name: "register the webhook URL",
    action: (s) => {
      const org = organizationOf(s);
      s.client = createExchangeClient({ baseUrl: s.sandbox.url, apiKey: org.apiKey, apiSecret: org.apiSecret });
      return s.client.organization.registerWebhook({ webhook_url: webhookUrlOf(s.server) });
    },
    check: (_registered, s) => webhookUrlOf(s.server),
  }),
];
