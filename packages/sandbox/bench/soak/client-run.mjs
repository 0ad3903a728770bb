// The soak with our client (@exchange-kit/client): onboard customers, then quote, initiate and poll payouts,
// against a sandbox in chaos mode, with a real webhook receiver. Every initiate carries a client_reference_id;
// the client resolves a lost answer through the history, and what it reports is checked against the sandbox's
// history at the end: no order twice, none lost, every webhook handled once.
import { randomUUID } from "node:crypto";
import {
  createExchangeClient,
  ExchangeAmbiguousResultError,
  ExchangeNetworkError,
  ExchangeTimeoutError,
  isExchangeApiError,
} from "@exchange-kit/client";
import {
  chaosSandbox,
  inParallel,
  ORG,
  operationPlan,
  ordersByReference,
  startReceiver,
  webhookFigures,
} from "./shared.mjs";

const WAIT = { intervalMs: 20, maxIntervalMs: 200, timeoutMs: 60_000 };

/** A failure the client gave up on that is worth another call later (its retries ran out). */
function retryable(error) {
  if (isExchangeApiError(error)) return error.action !== "fix";
  return error instanceof ExchangeNetworkError || error instanceof ExchangeTimeoutError;
}

/**
 * A safe call (a read, a quotation, a customer by its reference) repeated by the application when the client's
 * own retries ran out (two UNKNOWN_ERRORs in a row end a call: the document says to retry it once).
 */
async function persist(stats, work) {
  for (let round = 1; ; round++) {
    try {
      return await work();
    } catch (error) {
      if (round >= 5 || !retryable(error)) throw error;
      stats.applicationRetries++;
    }
  }
}

/** Tries `send` again while its result is ambiguous, asking `exists` first each time (at most 6 rounds). */
async function resolveAmbiguous(send, exists) {
  for (let round = 0; round < 6; round++) {
    const found = await exists();
    if (found) return found;
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ExchangeAmbiguousResultError)) throw error;
    }
  }
  throw new Error("still ambiguous after 6 rounds");
}

async function addKyc(client, customerId, stats) {
  const body = kycBody(customerId);
  const send = () => client.kyc.addData(body);
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ExchangeAmbiguousResultError)) throw error;
    stats.ambiguousOnboarding++;
  }
  // "KYC already exists" (UNKNOWN_ERROR naming customer_id) means the lost one was stored.
  const already = (e) => isExchangeApiError(e, "UNKNOWN_ERROR") && e.fieldErrors.customer_id !== undefined;
  return resolveAmbiguous(
    () => send().catch((e) => (already(e) ? {} : Promise.reject(e))),
    async () => false,
  );
}

async function addBank(client, customerId, stats) {
  const identifiers = {
    account_number: String(Date.now()) + String(Math.floor(Math.random() * 1e6)),
    ifsc: "HDFC0001234",
  };
  const send = () =>
    client.banks.create({ customer_id: customerId, bank_account_type: "ACCOUNT_DETAILS", identifiers });
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ExchangeAmbiguousResultError)) throw error;
    stats.ambiguousOnboarding++;
  }
  const exists = async () =>
    (await client.banks.list(customerId, { per_page: 100 })).results.find(
      (b) => b.identifiers?.account_number === identifiers.account_number,
    );
  return resolveAmbiguous(send, exists);
}

export function kycBody(customerId) {
  return {
    customer_id: customerId,
    full_name: "Asha Verma",
    phone: "9876543210",
    full_address: "14 MG Road, Bengaluru",
    dob: "15-08-1992",
    document_type: "PASSPORT",
    document_details: { document_number: `Z${randomUUID().slice(0, 8)}`, additional_data: {} },
    selfie_url: "https://files.example.com/selfie.jpg",
    tax_number: `PAN${randomUUID().replace(/-/g, "").slice(0, 7)}`.toUpperCase(),
    document_front_image_url: "https://files.example.com/front.png",
    document_back_image_url: "https://files.example.com/back.png",
    additional_info: { occupation: "Engineer" },
  };
}

async function onboard(client, stats) {
  const reference = `soak-${randomUUID()}`;
  const customer = await persist(stats, () =>
    client.customers.create({ client_reference_id: reference, full_name: "Asha Verma", alpha_3_country_code: "IND" }),
  );
  await addKyc(client, customer.id, stats);
  await persist(stats, () => client.customers.waitForKyc(customer.id, WAIT));
  const bank = await addBank(client, customer.id, stats);
  await persist(stats, () => client.banks.waitFor(customer.id, bank.id, WAIT));
  stats.operations.onboard++;
  return { customer, bank };
}

/** Quote, initiate, poll one payout; records what the client reported for its reference. */
async function payout(client, { customer, bank }, stats, reported) {
  const quote = await persist(stats, () =>
    client.payouts.createQuotation({
      asset: "usdt",
      fiat: "INR",
      network: "tron",
      payment_method: "IMPS",
      receiving_amount: "10000",
      customer_id: customer.id,
      bank_id: bank.id,
      risk_parameters: { ip_address: "203.0.113.24" },
    }),
  );
  stats.operations.quote++;
  const reference = `po-${randomUUID()}`;
  try {
    const order = await client.payouts.initiate({ quotation_id: quote.id, client_reference_id: reference });
    reported.set(reference, { outcome: "done", id: order.id });
  } catch (error) {
    if (isExchangeApiError(error) && error.action === "fix") throw error;
    // The client could not tell: the application looks the reference up in the history, as the document says.
    const found = await persist(stats, () => findByReference(client, reference));
    reported.set(reference, { outcome: "ambiguous", id: found?.id, lookup: found ? "found" : "absent" });
  }
  stats.operations.initiate++;
  const id = reported.get(reference).id;
  if (id) await persist(stats, () => client.payouts.get(id));
  stats.operations.poll++;
}

async function findByReference(client, reference) {
  for await (const order of client.payouts.listHistory.all({ per_page: 100 })) {
    if (order.client_reference_id === reference) return order;
  }
  return undefined;
}

/**
 * The ambiguous initiates and what their lookup found; `unresolved` counts lookups the final history contradicts
 * (an order found that is gone, or one said absent that exists after all).
 */
export function lookupFigures(reported, history) {
  const byRef = ordersByReference(history);
  const figures = { ambiguous: 0, foundByLookup: 0, absentByLookup: 0, unresolved: 0 };
  for (const [reference, report] of reported) {
    if (report.outcome !== "ambiguous") continue;
    figures.ambiguous++;
    figures[report.lookup === "found" ? "foundByLookup" : "absentByLookup"]++;
    const exists = (byRef.get(reference) ?? []).length > 0;
    if (exists !== (report.lookup === "found")) figures.unresolved++;
  }
  return figures;
}

/** Orders created twice, and orders the client reported done that the history lacks (or has another id for). */
export function orderFigures(reported, history) {
  const byRef = ordersByReference(history);
  let duplicates = 0;
  for (const orders of byRef.values()) duplicates += Math.max(0, orders.length - 1);
  let lost = 0;
  for (const [reference, report] of reported) {
    const orders = byRef.get(reference) ?? [];
    if (report.outcome === "done" && !orders.some((o) => o.id === report.id)) lost++;
  }
  return { orders: history.length, duplicates, lost };
}

async function fullHistory(client) {
  const all = [];
  for await (const order of client.payouts.listHistory.all({ per_page: 100 })) all.push(order);
  return all;
}

/** Payout events per payout: each payout's single final event, counted. */
async function payoutEventFigures(sandbox, history) {
  const perPayout = new Map(history.map((o) => [o.id, 0]));
  for (const e of await sandbox.events())
    if (e.body.type === "PAYOUT") perPayout.set(e.body.id, (perPayout.get(e.body.id) ?? 0) + 1);
  const counts = [...perPayout.values()];
  return {
    payoutsWithOneEvent: counts.filter((n) => n === 1).length,
    payoutsWithOtherCount: counts.filter((n) => n !== 1).length,
  };
}

/**
 * Runs `operations` mixed operations with our client against a sandbox in chaos mode and returns the figures.
 *
 * @example
 * const figures = await runClientSoak(createSandbox, { operations: 200, chaos: { rate: 0.2, seed: 42 } });
 */
export async function runClientSoak(createSandbox, options) {
  const started = performance.now();
  const { sandbox, counter } = await chaosSandbox(createSandbox, options.chaos);
  const receiver = await startReceiver();
  const retries = { count: 0 };
  const client = createExchangeClient({
    baseUrl: sandbox.url,
    apiKey: ORG.apiKey,
    apiSecret: ORG.apiSecret,
    retryBaseMs: options.retryBaseMs ?? 10,
    maxRetries: 6,
    timeoutMs: 5000,
    historyLookupPages: 20,
    hooks: { onRetry: () => void retries.count++ },
  });
  const stats = {
    operations: { onboard: 0, quote: 0, initiate: 0, poll: 0 },
    ambiguousOnboarding: 0,
    applicationRetries: 0,
  };
  const reported = new Map();
  try {
    await persist(stats, () => client.organization.registerWebhook({ webhook_url: receiver.url }));
    await inParallel(operationPlan(options.operations), options.workers ?? 8, async (payouts) => {
      const onboarded = await onboard(client, stats);
      for (let i = 0; i < payouts; i++) await payout(client, onboarded, stats, reported);
    });
    const runMs = performance.now() - started;
    const requests = counter.requests;
    // The faults of the run itself; the checks below meet chaos too.
    const plan = await persist(stats, () => client.request("GET", "/_sandbox/faults", { query: { limit: 1 } }));
    const history = await persist(stats, () => fullHistory(client));
    for (const order of history) await persist(stats, () => client.payouts.waitFor(order.id, WAIT));
    await sandbox.deliveriesSettled();
    return {
      seed: sandbox.chaos.seed,
      rate: sandbox.chaos.rate,
      runMs: Math.round(runMs),
      requests,
      clientRetries: retries.count,
      applicationRetries: stats.applicationRetries,
      operations: stats.operations,
      ambiguousOnboarding: stats.ambiguousOnboarding,
      faultsFired: plan.fired.by_fault,
      faultsFiredTotal: plan.fired.count,
      ...orderFigures(reported, history),
      ...lookupFigures(reported, history),
      initiatesDone: [...reported.values()].filter((r) => r.outcome === "done").length,
      ...(await payoutEventFigures(sandbox, history)),
      webhooks: await webhookFigures(sandbox, receiver),
    };
  } finally {
    await sandbox.close();
    await receiver.close();
  }
}
