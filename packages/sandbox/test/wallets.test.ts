import { describe, expect, it } from "vitest";
import { Api, createCustomer, ORG_B, startSandbox } from "./helpers.js";

const ADD = "/cms/api/v1/customer/wallet/create";

describe("wallets", () => {
  it("adds wallets with integer IDs and lists only the labelled ones", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const labelled = await api.ok("POST", ADD, {
      customer_id: customer.id,
      wallet_address: "TXYZa1b2c3d4e5f6g7h8i9j1k2L3M4N5P6",
      network: "Tron",
      label: "savings",
    });
    expect(labelled).toMatchObject({ id: expect.any(Number), status: "ACTIVE", is_visible: true, network: "Tron" });
    const hidden = await api.ok("POST", ADD, {
      customer_id: customer.id,
      wallet_address: "0x4444444444444444444444444444444444444444",
      network: "Polygon",
    });
    expect(hidden.is_visible).toBe(false);
    const list = await api.ok("GET", `/cms/api/v1/customer/wallet/list/${customer.id}`);
    expect(list.results.map((w: { id: number }) => w.id)).toEqual([labelled.id]);
    expect(await api.ok("GET", `/cms/api/v1/customer/wallet/${customer.id}/${hidden.id}`)).toEqual(hidden);
  });

  it("validates the network and the address shape", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    expect(
      (await api.post(ADD, { customer_id: customer.id, wallet_address: "0x1", network: "Ethereum" })).body.err_code,
    ).toBe("INPUT_MALFORMED");
    expect(
      (
        await api.post(ADD, {
          customer_id: customer.id,
          wallet_address: "0x4444444444444444444444444444444444444444",
          network: "Bitcoin",
        })
      ).body.err_code,
    ).toBe("INPUT_MALFORMED");
    expect((await api.post(ADD, { customer_id: customer.id })).body).toMatchObject({ err_code: "REQ_FIELD_MISSING" });
  });

  it("answers UNKNOWN_ERROR with errors.non_field_errors for a missing wallet, and deletes a wallet", async () => {
    const api = new Api(await startSandbox());
    const customer = await createCustomer(api);
    const wallet = await api.ok("POST", ADD, {
      customer_id: customer.id,
      wallet_address: "0x5555555555555555555555555555555555555555",
      network: "Bsc",
      label: "x",
    });
    const missing = await api.get(`/cms/api/v1/customer/wallet/${customer.id}/999999`);
    expect(missing.body).toMatchObject({
      err_code: "UNKNOWN_ERROR",
      errors: { non_field_errors: ["Wallet not found"] },
    });
    expect((await api.as(ORG_B).get(`/cms/api/v1/customer/wallet/${customer.id}/${wallet.id}`)).body.err_code).toBe(
      "UNKNOWN_ERROR",
    );
    const notInteger = await api.get(`/cms/api/v1/customer/wallet/${customer.id}/abc`);
    expect(notInteger.body).toMatchObject({ err_code: "UNKNOWN_ERROR", errors: { wallet_id: [expect.any(String)] } });
    expect((await api.ok("DELETE", `/cms/api/v1/customer/wallet/${customer.id}/${wallet.id}/delete`)).id).toBe(
      wallet.id,
    );
    expect(
      (await api.get(`/cms/api/v1/customer/wallet/${customer.id}/${wallet.id}`)).body.errors.non_field_errors,
    ).toEqual(["Wallet not found"]);
  });
});
