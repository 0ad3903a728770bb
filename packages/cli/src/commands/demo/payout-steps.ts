// The demo's payout: quoted, initiated (the quotation checked for expiry first), polled to its final state, its
// webhook received, then delivered again and handled once (deduplicated on id + event).
import { EVENT_TIMEOUT_MS } from "./receiver.js";
import { type DemoState, defineStep, ensure, payoutRef } from "./step.js";

async function findPayout(s: DemoState) {
  for await (const order of s.client.payouts.history.all({ per_page: 100 }))
    if (order.client_reference_id === payoutRef(s)) return (s.payout = order);
  throw new Error(`payout ${payoutRef(s)} is not in the history`);
}

/** The sandbox's log entry of the payout's SUCCESS event. */
async function loggedPayoutSuccess(s: DemoState) {
  const logged = (await s.sandbox.events()).find((e) => {
    const body = e.body as { id?: string; event?: string };
    return body.id === s.payout.id && body.event === "SUCCESS";
  });
  ensure(logged !== undefined, "the sandbox has no log entry for the payout event");
  return logged!;
}

/** Delivers the payout's SUCCESS event again; checks it was answered 200 and the handler ran once. */
async function redeliverPayoutSuccess(s: DemoState): Promise<number> {
  const logged = await loggedPayoutSuccess(s);
  const before = logged.deliveries.length;
  await s.client.request("POST", `/_sandbox/events/${logged.id}/redeliver`, { body: {} });
  await s.sandbox.deliveriesSettled();
  const after = (await s.sandbox.events()).find((e) => e.id === logged.id)!;
  const last = after.deliveries[after.deliveries.length - 1];
  const answered = last?.attempts[last.attempts.length - 1]?.status_code;
  ensure(after.deliveries.length > before && last?.reason === "redelivery", "the event was not delivered again");
  ensure(
    last?.state === "delivered" && answered === 200,
    `the receiver answered ${answered ?? "nothing"} to the duplicate`,
  );
  const count = s.receiver.handled.get(`PAYOUT SUCCESS ${s.payoutEvent.id}`);
  ensure(count === 1, `the handler ran ${count} times`);
  return after.deliveries.length;
}

export const PAYOUT_STEPS = [
  defineStep({
    name: "payout: quote 100 USDT",
    action: async (s) =>
      (s.payoutQuote = await s.client.payouts.createQuotation({
        asset: "USDT",
        fiat: "INR",
        network: "tron",
        payment_method: "IMPS",
        customer_id: s.customer.id,
        bank_id: s.bank.id,
        risk_parameters: { ip_address: "203.0.113.7" },
        sending_amount: "100",
      })),
    check: (q) => `${q.sending_amount} USDT -> ${q.receiving_amount} INR, deposit to ${q.wallet_address}`,
  }),
  defineStep({
    name: "payout: initiate (quotation checked for expiry first)",
    action: (s) => s.client.payouts.initiate({ client_reference_id: payoutRef(s) }, { quotation: s.payoutQuote }),
    check: (_initiated, s) => payoutRef(s),
  }),
  defineStep({
    name: "payout: find the order by client_reference_id",
    action: findPayout,
    check: (p) => `${p.id} ${p.status}`,
  }),
  defineStep({
    name: "payout: poll until final (PROCESSING sends no event)",
    action: (s) => s.client.payouts.waitFor(s.payout.id, { timeoutMs: EVENT_TIMEOUT_MS }),
    check: (p) => {
      ensure(p.status === "SUCCESS", `status ${p.status}`);
      return `${p.status}, UTR ${p.utr ?? "-"}`;
    },
  }),
  defineStep({
    name: "receive PAYOUT SUCCESS (signed webhook)",
    action: async (s) => (s.payoutEvent = await s.receiver.waitFor("PAYOUT", "SUCCESS", s.payout.id)),
    check: (e) => `client_reference_id ${(e.metadata as Record<string, unknown>).client_reference_id}`,
  }),
  defineStep({
    name: "redeliver PAYOUT SUCCESS: answered 200, handled once",
    action: redeliverPayoutSuccess,
    check: (n) => `${n} deliveries, handler ran once (deduplicated on id + event)`,
  }),
];
