// The runtime matrix smoke: runs unchanged on Node, Bun and Deno from an app that installed the published
// tarballs. Signs a request, calls the sandbox with the client, verifies a webhook, and serves one delivery twice
// through the Fetch handler with deduplication. Prints one JSON line {runtime, checks, failures}; exits 1 on any.
import { canonicalizeText, signRequest, verifySignature } from "@exchange-kit/signing";
import { createExchangeClient } from "@exchange-kit/client";
import {
  createDeduplicator,
  createWebhookHandler,
  memoryStore,
  signTestWebhook,
  verifyWebhook,
} from "@exchange-kit/webhook-verify";

const env = (name) => globalThis.Deno?.env.get(name) ?? globalThis.process?.env[name];
const runtime = globalThis.Deno
  ? `deno ${Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${Bun.version}`
    : `node ${process.versions.node}`;
const apiKey = env("EXCHANGE_API_KEY");
const apiSecret = env("EXCHANGE_API_SECRET");
const baseUrl = env("EXCHANGE_BASE_URL");
const failures = [];
let checks = 0;
async function check(name, run) {
  checks++;
  try {
    await run();
  } catch (error) {
    failures.push(`${name}: ${error?.message ?? error}`);
  }
}
const assert = (condition, message) => {
  if (!condition) throw new Error(message);
};

await check("sign", async () => {
  const { body, headers } = await signRequest({ apiKey, apiSecret, body: { b: "नमस्ते", a: "100.50" } });
  assert(body === '{"a":"100.50","b":"\\u0928\\u092e\\u0938\\u094d\\u0924\\u0947"}', `canonical body ${body}`);
  const ok = await verifySignature({
    apiKey,
    apiSecret,
    timestamp: headers["X-TIMESTAMP"],
    signature: headers["X-SIGNATURE"],
    canonicalBody: body,
  });
  assert(ok, "a fresh signature does not verify");
  assert(
    canonicalizeText('{"amount":12345678901234567890}') === '{"amount":12345678901234567890}',
    "canonicalizeText lost digits",
  );
});

await check("client call against the sandbox", async () => {
  const client = createExchangeClient({ baseUrl, apiKey, apiSecret });
  const created = await client.customers.create({
    client_reference_id: `matrix-${runtime}-${Date.now()}`,
    alpha_3_country_code: "IND",
    full_name: "Asha Verma",
  });
  const fetched = await client.customers.get(created.id);
  assert(fetched.id === created.id && fetched.full_name === "Asha Verma", `got ${JSON.stringify(fetched)}`);
});

const event = {
  type: "PAYOUT",
  id: "0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d0e",
  event: "SUCCESS",
  timestamp: "2026-03-01T10:15:30Z",
  metadata: { client_reference_id: "po-1", utr: "UTR123456789" },
};

await check("verifyWebhook", async () => {
  const delivery = await signTestWebhook({ event, apiKey, apiSecret });
  const verified = await verifyWebhook({ body: delivery.body, headers: delivery.headers, apiKey, apiSecret });
  assert(
    verified.known && verified.type === "PAYOUT" && verified.id === event.id,
    `verified ${JSON.stringify(verified)}`,
  );
  let rejected;
  try {
    await verifyWebhook({ body: delivery.body.replace("po-1", "po-2"), headers: delivery.headers, apiKey, apiSecret });
  } catch (error) {
    rejected = error.code;
  }
  assert(rejected === "INVALID_SIGNATURE", `a tampered body gave ${rejected}`);
});

await check("Fetch handler with deduplication", async () => {
  const handled = [];
  let done;
  const first = new Promise((resolve) => (done = resolve));
  const handler = createWebhookHandler(
    { apiKey, apiSecret, deduplicator: createDeduplicator({ store: memoryStore() }) },
    (e) => {
      handled.push(e.id);
      done();
    },
  );
  const delivery = await signTestWebhook({ event, apiKey, apiSecret });
  const post = () =>
    handler(
      new Request("http://127.0.0.1/webhooks", { method: "POST", headers: delivery.headers, body: delivery.body }),
    );
  const a = await post();
  await first;
  const b = await post();
  const second = await b.json();
  assert(a.status === 200 && b.status === 200, `statuses ${a.status}, ${b.status}`);
  assert(second.duplicate === true, `second answer ${JSON.stringify(second)}`);
  assert(handled.length === 1, `handled ${handled.length} times`);
});

console.log(JSON.stringify({ runtime, checks, failures }));
if (failures.length) globalThis.Deno ? Deno.exit(1) : process.exit(1);
