import { describe, expect, it } from "vitest";
import { ExchangeAmbiguousResultError, ExchangeApiError, ExchangeValidationError } from "../src/index.js";
import { apiError, CUSTOMER_ID, expectedSignature, ok, testClient } from "./support/fake-fetch.js";

describe("client.request, the signed escape hatch", () => {
  it("adds a wallet the spec cannot type yet, signed and unwrapped", async () => {
    const { client, calls } = testClient(() =>
      ok({ id: 1024, wallet_address: "0xabc", network: "Polygon", label: "main" }),
    );
    const wallet = await client.request<{ id: number }>("POST", "/cms/api/v1/customer/wallet/create", {
      body: { customer_id: CUSTOMER_ID, wallet_address: "0xabc", network: "Polygon", label: "main" },
    });
    expect(wallet.id).toBe(1024);
    const call = calls[0]!;
    expect(call.body).toBe(
      `{"customer_id":"${CUSTOMER_ID}","label":"main","network":"Polygon","wallet_address":"0xabc"}`,
    );
    expect(call.headers["x-signature"]).toBe(expectedSignature(call.headers["x-timestamp"]!, call.body!));
  });

  it("lists wallets with a query, signing {}", async () => {
    const { client, calls } = testClient(() => ok([{ id: 1 }]));
    const { data, response } = await client.request.withResponse(
      "GET",
      `/cms/api/v1/customer/wallet/list/${CUSTOMER_ID}`,
      {
        query: { page: 1 },
      },
    );
    expect(data).toEqual([{ id: 1 }]);
    expect(response.status).toBe(200);
    expect(calls[0]!.url.search).toBe("?page=1");
    expect(calls[0]!.headers["x-signature"]).toBe(expectedSignature(calls[0]!.headers["x-timestamp"]!, "{}"));
  });

  it("retries and throws typed errors like the resource methods", async () => {
    const { client, calls } = testClient((_, i) =>
      i === 0 ? apiError(503, "SYS_SERVICE_UNAVAILABLE") : apiError(400, "USR_NOT_FOUND"),
    );
    const error = await client.request("GET", "/cms/api/v1/customer/wallet/list/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect((error as ExchangeApiError).operation).toEqual({
      operationId: undefined,
      method: "GET",
      path: "/cms/api/v1/customer/wallet/list/x",
    });
    expect(calls).toHaveLength(2);
  });

  it("does not repeat an initiate it cannot look up: a 500 is an ambiguous result", async () => {
    const { client, calls } = testClient(() => apiError(500, "SYS_INTERNAL_ERROR"));
    const error = await client
      .request("POST", "/pos/api/v1/payout/initiate", { body: { quotation_id: "q", client_reference_id: "p-1" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeAmbiguousResultError);
    expect((error as ExchangeAmbiguousResultError).check).toMatch(/client\.payouts\.history/);
    expect(calls).toHaveLength(1);
  });

  it("refuses a body on GET and DELETE", async () => {
    const { client, calls } = testClient(() => ok({}));
    await expect(client.request("DELETE", "/x", { body: { a: 1 } })).rejects.toBeInstanceOf(ExchangeValidationError);
    expect(calls).toHaveLength(0);
  });

  it("refuses a path without a leading slash", async () => {
    const { client } = testClient(() => ok({}));
    await expect(client.request("GET", "cms/api" as "/x")).rejects.toBeInstanceOf(ExchangeValidationError);
  });
});
