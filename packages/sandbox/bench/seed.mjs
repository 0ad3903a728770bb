// Seeds a sandbox's store directly (one transaction, no HTTP): `rows` customers and `rows` payouts of the
// first organization, created one second apart so pages have a real creation order to walk.
import { randomUUID } from "node:crypto";

const START_MS = Date.parse("2026-01-01T00:00:00Z");

export async function seed(store, organizations, rows) {
  if (rows <= 0) return;
  const org = organizations[0].id;
  await store.transaction(async () => {
    const customers = [];
    for (let i = 0; i < rows; i++) {
      const at = new Date(START_MS + i * 1000).toISOString();
      const customer = {
        id: randomUUID(),
        org,
        client_reference_id: `seed-${i}`,
        full_name: `Seed Customer ${i}`,
        email: `seed${i}@example.com`,
        phone: `+9198${String(i).padStart(8, "0")}`,
        country: "IND",
        type: "INDIVIDUAL",
        status: "VERIFIED",
        failure_reason: null,
        created_at: at,
        updated_at: at,
      };
      await store.customers.put(customer);
      if (customers.length < 100) customers.push(customer.id);
    }
    for (let i = 0; i < rows; i++) {
      const at = new Date(START_MS + i * 1000).toISOString();
      await store.payouts.put({
        id: randomUUID(),
        org,
        quotation_id: randomUUID(),
        customer_id: customers[i % customers.length],
        bank_id: randomUUID(),
        asset: "USDT",
        fiat: "INR",
        network: "TRON",
        sending_amount: "100",
        rate: "88.5",
        receiving_amount: "8850",
        wallet_address: "TXYZ",
        client_reference_id: `seed-payout-${i}`,
        fees: { service_fee: "0", client_fee: "0", client_gst: "0", tds: "0" },
        status: "SUCCESS",
        failure_reason: null,
        created_at: at,
        updated_at: at,
      });
    }
  });
}
