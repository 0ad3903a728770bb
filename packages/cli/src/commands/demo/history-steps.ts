// The demo's history: ten more payins, then the whole history paged through 10 at a time with no order repeated.
import { payinQuotationFor } from "./payin-steps.js";
import { type DemoState, defineStep, ensure, payinRef } from "./step.js";

async function addPayins(s: DemoState, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const q = (await s.client.payins.createQuotation(payinQuotationFor(s, `${1000 + i}.00`))) as { id: string };
    await s.client.payins.initiate({
      quotation_id: q.id,
      client_reference_id: `${payinRef(s)}-${i}`,
      transaction_reference_id: `UTR${s.run.toUpperCase()}${i}`.padEnd(12, "0"),
    });
  }
}

/** Pages through the payin history; checks no page repeats an order and returns how many there are. */
async function countPayins(s: DemoState): Promise<number> {
  let orders = 0;
  const ids = new Set<string>();
  for await (const order of s.client.payins.history.all({ per_page: 10 })) {
    orders++;
    ids.add(order.id);
  }
  ensure(orders === ids.size, "a page repeated an order");
  ensure(orders >= 11, `only ${orders} orders in the history`);
  return orders;
}

export const HISTORY_STEPS = [
  defineStep({
    name: "page through the payin history (per_page 10)",
    action: async (s) => {
      await addPayins(s, 10);
      return countPayins(s);
    },
    check: (n) => `${n} orders over ${Math.ceil(n / 10)} pages, none repeated`,
  }),
];
