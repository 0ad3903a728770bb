// The demo's payin: quoted, initiated with the bank's reference (UTR), found in the history, settled by webhook.
import { type DemoState, defineStep, ensure, payinRef } from "./step.js";

/** A payin quotation request for the demo's customer and bank account. */
export function payinQuotationFor(s: DemoState, sendingAmount: string) {
  return {
    customer_id: s.customer.id,
    bank_id: s.bank.id,
    asset: "usdt",
    fiat: "INR",
    network: "tron",
    payment_method: "IMPS",
    wallet_address: "TXYZ1234567890abcdefghijkLMNOPQRS",
    sending_amount: sendingAmount,
    risk_parameters: { ip_address: "203.0.113.7" },
  } as const;
}

async function findPayin(s: DemoState) {
  for await (const order of s.client.payins.history.all({ per_page: 100 }))
    if (order.client_reference_id === payinRef(s)) return (s.payin = order);
  throw new Error(`payin ${payinRef(s)} is not in the history`);
}

export const PAYIN_STEPS = [
  defineStep({
    name: "payin: quote 25000.00 INR",
    action: async (s) => (s.payinQuote = await s.client.payins.createQuotation(payinQuotationFor(s, "25000.00"))),
    check: (q) => {
      const v = q as Record<string, unknown>;
      ensure(typeof v.receiving_amount === "string", "amounts must be decimal strings");
      return `${v.sending_amount} INR -> ${v.receiving_amount} USDT, expires ${v.expiry_time}`;
    },
  }),
  defineStep({
    name: "payin: initiate with the bank reference (UTR)",
    action: (s) =>
      s.client.payins.initiate({
        quotation_id: (s.payinQuote as { id: string }).id,
        client_reference_id: payinRef(s),
        transaction_reference_id: `UTR${s.run.toUpperCase().padEnd(12, "0")}`,
      }),
    check: (_initiated, s) => payinRef(s),
  }),
  defineStep({
    name: "payin: find the order by client_reference_id",
    action: findPayin,
    check: (p) => `${p.id} ${p.status}`,
  }),
  defineStep({
    name: "receive PAYIN SUCCESS (signed webhook)",
    action: (s) => s.receiver.waitFor("PAYIN", "SUCCESS", s.payin.id),
    check: (e) => `UTR ${(e.metadata as Record<string, unknown>).transaction_reference_id}`,
  }),
];
