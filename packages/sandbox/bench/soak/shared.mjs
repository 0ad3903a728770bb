// What both soak runs share: the sandbox in chaos mode with its request count, the plan of operations, a
// webhook receiver built with @exchange-kit/webhook-verify, and the figures read back from the sandbox.
import { createServer } from "node:http";
import { createDeduplicator } from "@exchange-kit/webhook-verify";
import { createNodeWebhookHandler } from "@exchange-kit/webhook-verify/node";

export const ORG = { name: "Soak", apiKey: "soak_key", apiSecret: "soak_secret" };
/** Payouts per customer before the next onboarding: far below the daily limit (10,000 INR each). */
export const PAYOUTS_PER_CUSTOMER = 10;

/**
 * The jobs of a run: each onboards a customer, then quotes, initiates and polls up to PAYOUTS_PER_CUSTOMER
 * payouts; a job is 1 + 3 x payouts operations, `total` operations in all.
 *
 * @example
 * operationPlan(35); // [10, 1]: 31 operations, then an onboarding and one payout (4)
 */
export function operationPlan(total) {
  const jobs = [];
  let left = total;
  while (left > 0) {
    const payouts = Math.min(PAYOUTS_PER_CUSTOMER, Math.floor((left - 1) / 3));
    jobs.push(payouts);
    left -= 1 + 3 * payouts;
  }
  return jobs;
}

/** A sandbox in chaos mode counting every request it logs. */
export async function chaosSandbox(createSandbox, chaos) {
  const counter = { requests: 0 };
  const sandbox = await createSandbox({
    organizations: [ORG],
    autoProgressMs: 20,
    webhookTimeoutMs: 2000,
    webhookRetry: { maxAttempts: 8, initialDelayMs: 20, factor: 2, maxDelayMs: 500 },
    chaos,
    logger: {
      info: (line) => {
        if (/^(GET|POST|PATCH|DELETE) /.test(line)) counter.requests++;
      },
    },
  });
  return { sandbox, counter };
}

/** A webhook receiver: verified, deduplicated (in memory), each event handled by `onEvent` and counted. */
export async function startReceiver() {
  const handled = new Map();
  const received = { deliveries: 0 };
  const handler = createNodeWebhookHandler(
    { apiKey: ORG.apiKey, apiSecret: ORG.apiSecret, deduplicator: createDeduplicator(), onError: () => {} },
    (event) => {
      const key = `${event.type}|${event.id}|${event.event}|${event.timestamp}`;
      handled.set(key, (handled.get(key) ?? 0) + 1);
    },
  );
  const server = createServer((req, res) => {
    received.deliveries++;
    void handler(req, res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/webhooks`;
  const close = () => new Promise((resolve) => server.close(() => resolve()));
  return { url, handled, received, close };
}

/** Every event the sandbox emitted for a webhook URL, handled exactly once by the receiver? */
export async function webhookFigures(sandbox, receiver) {
  const events = (await sandbox.events()).filter((e) => e.deliveries.some((d) => d.url));
  let once = 0;
  let twice = 0;
  let missed = 0;
  for (const e of events) {
    const n = receiver.handled.get(`${e.body.type}|${e.body.id}|${e.body.event}|${e.body.timestamp}`) ?? 0;
    if (n === 1) once++;
    else if (n === 0) missed++;
    else twice++;
  }
  const deliveries = receiver.received.deliveries;
  return { events: events.length, handledOnce: once, handledTwice: twice, missed, deliveries };
}

/** How many orders each client_reference_id has, from the whole payout history. */
export function ordersByReference(history) {
  const byRef = new Map();
  for (const order of history)
    byRef.set(order.client_reference_id, [...(byRef.get(order.client_reference_id) ?? []), order]);
  return byRef;
}

/** Runs `work(step, index)` for every step with `workers` at a time. */
export async function inParallel(steps, workers, work) {
  let next = 0;
  const worker = async () => {
    while (next < steps.length) {
      const index = next++;
      await work(steps[index], index);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}
