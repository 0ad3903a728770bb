// Contract tests of shapes: they pass against the mock (npx exchange-kit mock) AND against the sandbox
// (npx exchange-kit sandbox), because they only rely on what the spec promises about requests and responses.
// EXCHANGE_BASE_URL, EXCHANGE_API_KEY and EXCHANGE_API_SECRET say which one to call.
import { randomUUID } from "node:crypto";
import { createExchangeClient } from "@exchange-kit/client";
import { readSpec } from "@exchange-kit/openapi";
import { signRequest } from "@exchange-kit/signing";
import { describe, expect, it } from "vitest";

const baseUrl = process.env.EXCHANGE_BASE_URL!;
const apiKey = process.env.EXCHANGE_API_KEY!;
const apiSecret = process.env.EXCHANGE_API_SECRET!;
const client = createExchangeClient({ baseUrl, apiKey, apiSecret, maxRetries: 0 });
const errCodes: string[] = (readSpec().components?.schemas?.ErrCode as { enum: string[] }).enum;

const newCustomer = () => ({
  client_reference_id: `contract-${randomUUID()}`,
  alpha_3_country_code: "IND",
  full_name: "Asha Verma",
});

describe("customers: shapes the spec promises", () => {
  it("creating a customer answers a customer with an id and the spec's fields", async () => {
    const customer = await client.customers.create(newCustomer());
    expect(customer.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(customer).toMatchObject({
      client_reference_id: expect.any(String),
      full_name: expect.any(String),
      country: expect.stringMatching(/^[A-Z]{3}$/),
    });
  });

  it("a request without the signing headers is refused with 401 and an error code the spec lists", async () => {
    const res = await fetch(`${baseUrl}/cms/api/v1/customer/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(newCustomer()),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { status: boolean; err_code: string };
    expect(body).toMatchObject({ status: false, err_code: expect.stringMatching(/^AUTH_/) });
    expect(errCodes).toContain(body.err_code);
  });

  it("a signed body without a required field is refused with a 4xx error envelope", async () => {
    const { client_reference_id: _left_out, ...body } = newCustomer();
    const signed = await signRequest({ apiKey, apiSecret, body });
    const res = await fetch(`${baseUrl}/cms/api/v1/customer/create`, { method: "POST", ...signed });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await res.json()).toMatchObject({ status: false, err_code: expect.any(String) });
  });
});
