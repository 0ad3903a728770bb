// Retries that meet their own success, end to end: the real sandbox commits a createCustomer, a bank delete or a
// wallet delete and then closes the connection (fault DROP_AFTER_COMMIT), so the client's repeat meets the record
// it made or the record already gone. The call must resolve to what the lost attempt did, and the service must hold
// one customer / no record. A not-found that no earlier attempt can explain stays an error.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeApiError, type ExchangeClient } from "../src/index.js";
import { failure } from "./support/fake-fetch.js";
import { type Sandbox, sandboxClient, startSandbox, unique, verifiedCustomer } from "./support/sandbox.js";

const running: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

async function world() {
  const sandbox = await startSandbox();
  running.push(sandbox);
  return { sandbox, client: sandboxClient(sandbox) };
}

/** Arms a request fault on the sandbox for `operation`, once. */
const arm = (client: ExchangeClient, operation: string, fault: string) =>
  client.request("POST", "/_sandbox/faults", { body: { operation, fault, times: 1 } });

/** The request faults that fired, by kind. */
async function fired(client: ExchangeClient): Promise<Record<string, number>> {
  const faults = await client.request<{ fired: { by_fault: Record<string, number> } }>("GET", "/_sandbox/faults");
  return faults.fired.by_fault;
}

async function bankOf(client: ExchangeClient, customerId: string): Promise<string> {
  const vpa = `${unique("asha").replace(/[^a-z0-9]/g, "")}@okhdfc`;
  const bank = await client.banks.create({ customer_id: customerId, bank_account_type: "UPI", identifiers: { vpa } });
  return bank.id;
}

async function walletOf(client: ExchangeClient, customerId: string): Promise<number> {
  const wallet = await client.request<{ id: number }>("POST", "/cms/api/v1/customer/wallet/create", {
    body: {
      customer_id: customerId,
      wallet_address: "0x52908400098527886E0F7030069857D2E4169EE7",
      network: "Polygon",
      label: "main",
    },
  });
  return wallet.id;
}

describe("createCustomer whose answer is lost after the commit", () => {
  it("resolves to the customer the lost attempt created, and the service holds one", async () => {
    const { client } = await world();
    await arm(client, "createCustomer", "DROP_AFTER_COMMIT");
    const reference = unique("cust");
    const body = { client_reference_id: reference, full_name: "Asha Verma", alpha_3_country_code: "IND" };
    const customer = await client.customers.create(body);
    expect(customer).toMatchObject({ client_reference_id: reference, status: "UNVERIFIED" });
    const holding: string[] = [];
    for await (const c of client.customers.list.all({ per_page: 100 }))
      if (c.client_reference_id === reference) holding.push(c.id);
    expect(holding).toEqual([customer.id]);
    expect(await fired(client)).toMatchObject({ DROP_AFTER_COMMIT: 1 });
  });
});

describe("banks.delete whose answer is lost after the commit", () => {
  it("resolves to DeletedByEarlierAttempt, and the account is gone", async () => {
    const { client } = await world();
    const customer = await verifiedCustomer(client);
    const bankId = await bankOf(client, customer.id);
    await arm(client, "deleteBankAccount", "DROP_AFTER_COMMIT");
    expect(await client.banks.delete(customer.id, bankId)).toEqual({ deletedByEarlierAttempt: true, attempts: 2 });
    const error = await failure(client.banks.get(customer.id, bankId));
    expect(error.errCode).toBe("BANK_NOT_FOUND");
    expect(await fired(client)).toMatchObject({ DROP_AFTER_COMMIT: 1 });
  });

  it("gives the not-found answer to withResponse", async () => {
    const { client } = await world();
    const customer = await verifiedCustomer(client);
    const bankId = await bankOf(client, customer.id);
    await arm(client, "deleteBankAccount", "DROP_AFTER_COMMIT");
    const { data, response } = await client.banks.delete.withResponse(customer.id, bankId);
    expect(data).toEqual({ deletedByEarlierAttempt: true, attempts: 2 });
    expect(response.status).toBe(400);
  });

  it("resolves to the deleted record when nothing was lost", async () => {
    const { client } = await world();
    const customer = await verifiedCustomer(client);
    const bankId = await bankOf(client, customer.id);
    expect(await client.banks.delete(customer.id, bankId)).toMatchObject({ id: bankId });
  });

  it("still fails with BANK_NOT_FOUND on a first attempt that finds no account", async () => {
    const { client } = await world();
    const customer = await verifiedCustomer(client);
    const error = await failure(client.banks.delete(customer.id, randomUUID()));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.errCode).toBe("BANK_NOT_FOUND");
    expect(error.attempts).toBe(1);
  });

  it("still fails with BANK_NOT_FOUND after a 503, which proves the first attempt did nothing", async () => {
    const { client } = await world();
    const customer = await verifiedCustomer(client);
    await arm(client, "deleteBankAccount", "HTTP_503");
    const error = await failure(client.banks.delete(customer.id, randomUUID()));
    expect(error.errCode).toBe("BANK_NOT_FOUND");
    expect(error.attempts).toBe(2);
  });
});

describe("wallets.delete whose answer is lost after the commit", () => {
  it("resolves to DeletedByEarlierAttempt, and the wallet is gone", async () => {
    const { client } = await world();
    const customer = await client.customers.create({
      client_reference_id: unique("cust"),
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
    });
    const walletId = await walletOf(client, customer.id);
    await arm(client, "deleteWallet", "DROP_AFTER_COMMIT");
    expect(await client.wallets.delete(customer.id, walletId)).toEqual({ deletedByEarlierAttempt: true, attempts: 2 });
    const error = await failure(client.wallets.get(customer.id, walletId));
    expect(error.fieldErrors.non_field_errors).toEqual(["Wallet not found"]);
    expect(await fired(client)).toMatchObject({ DROP_AFTER_COMMIT: 1 });
  });

  it("still fails with the wallet-not-found answer on a first attempt that finds no wallet", async () => {
    const { client } = await world();
    const customer = await client.customers.create({
      client_reference_id: unique("cust"),
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
    });
    const error = await failure(client.wallets.delete(customer.id, 987654));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.errCode).toBe("UNKNOWN_ERROR");
    expect(error.fieldErrors.non_field_errors).toEqual(["Wallet not found"]);
    expect(error.attempts).toBe(1);
  });
});
