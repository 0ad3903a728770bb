// The same mixed operations from a naive integration: bare fetch with @exchange-kit/signing, and a retry
// wrapper (3 tries, backoff) around each step, as integrations are often written. Its payout step quotes and
// initiates with a fresh reference on every try; when an answer was lost after the commit (DROP_AFTER_COMMIT,
// a reset), the retry moves the money a second time. The run counts those duplicate orders.
import { randomUUID } from "node:crypto";
import { signRequest } from "@exchange-kit/signing";
import { kycBody } from "./client-run.mjs";
import { chaosSandbox, inParallel, ORG, operationPlan } from "./shared.mjs";

/** One signed call; any failure (no answer, or not 200) throws. */
async function call(base, method, path, body) {
  const signed = await signRequest({ apiKey: ORG.apiKey, apiSecret: ORG.apiSecret, ...(body ? { body } : {}) });
  const headers = body ? { ...signed.headers, "Content-Type": "application/json" } : signed.headers;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: signed.body,
    signal: AbortSignal.timeout(5000),
  });
  const envelope = await response.json();
  if (response.status !== 200) throw new Error(`${response.status} ${envelope.err_code}`);
  return envelope.data;
}

/** The naive retry: any error, up to 3 tries, waiting baseMs then twice as long. */
async function retry(baseMs, work) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, baseMs * 2 ** (attempt - 1)));
    }
  }
}

async function waitUntil(read, done) {
  for (let i = 0; i < 300; i++) {
    const record = await read().catch(() => undefined);
    if (record && done(record)) return record;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("gave up waiting");
}

async function onboard(base, baseMs) {
  const customer = await retry(baseMs, () =>
    call(base, "POST", "/cms/api/v1/customer/create", {
      client_reference_id: `naive-${randomUUID()}`,
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
    }),
  );
  const kyc = kycBody(customer.id);
  await retry(baseMs, () => call(base, "POST", "/cms/api/v1/kyc/add-kyc-data", kyc));
  await waitUntil(
    () => call(base, "GET", `/cms/api/v1/customer/${customer.id}`),
    (c) => c.status === "VERIFIED",
  );
  const identifiers = {
    account_number: String(Date.now()) + String(Math.floor(Math.random() * 1e6)),
    ifsc: "HDFC0001234",
  };
  const bank = await retry(baseMs, () =>
    call(base, "POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers,
    }),
  );
  const path = `/cms/api/v1/bank/${customer.id}/${bank.id}`;
  await waitUntil(
    () => call(base, "GET", path),
    (b) => b.bank_account_status === "VERIFIED",
  );
  return { customer, bank };
}

/** One intended payout: quote and initiate, retried as a whole, each try with its own reference. */
async function payout(base, baseMs, { customer, bank }, intent) {
  const order = await retry(baseMs, async (attempt) => {
    const quote = await call(base, "POST", "/pos/api/v1/payout/quotation", {
      asset: "usdt",
      fiat: "INR",
      network: "tron",
      payment_method: "IMPS",
      receiving_amount: "10000",
      customer_id: customer.id,
      bank_id: bank.id,
      risk_parameters: { ip_address: "203.0.113.24" },
    });
    return call(base, "POST", "/pos/api/v1/payout/initiate", {
      quotation_id: quote.id,
      client_reference_id: `${intent}.${attempt}`,
    });
  });
  await retry(baseMs, () => call(base, "GET", `/pos/api/v1/payout/${order.id}`));
}

async function history(base) {
  const all = [];
  for (let page = 1; ; page++) {
    const data = await retry(10, () => call(base, "GET", `/pos/api/v1/payout/history?per_page=100&page=${page}`));
    all.push(...data.results);
    if (!data.next) return all;
  }
}

/** Orders per intended payout: an intent with more than one order moved money twice. */
export function naiveOrderFigures(orders, intents) {
  const perIntent = new Map();
  for (const order of orders) {
    const intent = order.client_reference_id.split(".")[0];
    perIntent.set(intent, (perIntent.get(intent) ?? 0) + 1);
  }
  const duplicates = [...perIntent.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  return { intents, orders: orders.length, intentsPaid: perIntent.size, duplicates };
}

/**
 * Runs the naive integration's mixed operations against a sandbox in chaos mode (and the fault rules of `arm`,
 * armed first); counts its duplicate orders.
 *
 * @example
 * const figures = await runNaiveSoak(createSandbox, { operations: 200, chaos: { rate: 0.2, seed: 42 } });
 */
export async function runNaiveSoak(createSandbox, options) {
  const started = performance.now();
  const { sandbox, counter } = await chaosSandbox(createSandbox, options.chaos);
  const baseMs = options.retryBaseMs ?? 10;
  const failed = { onboardings: 0, payouts: 0 };
  let intents = 0;
  try {
    for (const rule of options.arm ?? [])
      await retry(baseMs, () => call(sandbox.url, "POST", "/_sandbox/faults", rule));
    await inParallel(operationPlan(options.operations), options.workers ?? 8, async (payouts) => {
      const onboarded = await onboard(sandbox.url, baseMs).catch(() => void failed.onboardings++);
      for (let i = 0; onboarded && i < payouts; i++) {
        const intent = `intent-${intents++}`;
        await payout(sandbox.url, baseMs, onboarded, intent).catch(() => void failed.payouts++);
      }
    });
    const runMs = Math.round(performance.now() - started);
    const requests = counter.requests;
    const plan = await retry(10, () => call(sandbox.url, "GET", "/_sandbox/faults?limit=1"));
    const orders = naiveOrderFigures(await history(sandbox.url), intents);
    const fired = { faultsFired: plan.fired.by_fault, faultsFiredTotal: plan.fired.count };
    return { seed: sandbox.chaos.seed, runMs, requests, ...fired, failed, ...orders };
  } finally {
    await sandbox.close();
  }
}
