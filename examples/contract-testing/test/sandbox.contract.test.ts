// Contract tests only the sandbox can pass (npx exchange-kit sandbox): the mock checks shapes and that the
// signing headers are there, never the signature itself, never state, limits or webhooks.
import { randomUUID } from "node:crypto";
import { createExchangeClient, isExchangeApiError } from "@exchange-kit/client";
import { describe, expect, it } from "vitest";

const baseUrl = process.env.EXCHANGE_BASE_URL!;
const apiKey = process.env.EXCHANGE_API_KEY!;
const apiSecret = process.env.EXCHANGE_API_SECRET!;
const client = createExchangeClient({ baseUrl, apiKey, apiSecret, maxRetries: 0 });

const newCustomer = () => ({
  client_reference_id: `contract-${randomUUID()}`,
  alpha_3_country_code: "IND",
  full_name: "Asha Verma",
});

describe("what only the sandbox checks", () => {
  it("a request signed with the wrong secret is refused with AUTH_INVALID_SIGNATURE", async () => {
    const wrongSecret = createExchangeClient({ baseUrl, apiKey, apiSecret: `${apiSecret}-wrong`, maxRetries: 0 });
    const error = await wrongSecret.customers.create(newCustomer()).catch((e: unknown) => e);
    expect(isExchangeApiError(error, "AUTH_INVALID_SIGNATURE")).toBe(true);
  });

  it("a created customer is read back as it was created (state)", async () => {
    const sent = newCustomer();
    const created = await client.customers.create(sent);
    const read = await client.customers.get(created.id);
    expect(read).toMatchObject({ id: created.id, client_reference_id: sent.client_reference_id, full_name: sent.full_name });
  });

  it("creating a customer again with the same reference answers the same customer, not a second one", async () => {
    const sent = newCustomer();
    const first = await client.customers.create(sent);
    const again = await client.customers.create(sent);
    expect(again.id).toBe(first.id);
    // Another reference is another customer: without this line the test passes against the mock too, which
    // answers its one example customer to every create.
    const other = await client.customers.create(newCustomer());
    expect(other.id).not.toBe(first.id);
  });
});
