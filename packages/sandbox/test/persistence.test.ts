import { mkdtempSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox } from "../src/index.js";
import {
  Api,
  ORG_A,
  ORG_B,
  payoutQuotationBody,
  startReceiver,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = { organizations: [ORG_A, ORG_B], autoProgressMs: 0 as const };

describe("SQLite file storage", () => {
  it("keeps customers, banks, orders, webhooks, wallets, events and the clock across a restart on the same file", async () => {
    const file = join(dir, "restart.db");
    const first = await createSandbox({ ...options, db: file });
    const api = new Api(first);
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await verifiedCustomer(api);
    const bank = await verifiedBank(api, customer.id);
    const quote = await api.ok("POST", "/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id));
    const wallet = await api.ok("POST", "/cms/api/v1/customer/wallet/create", {
      customer_id: customer.id,
      wallet_address: "0x2222222222222222222222222222222222222222",
      network: "Ethereum",
      label: "main",
    });
    await first.clock.advance(60);
    await first.close();
    expect(existsSync(file)).toBe(true);

    const second = await createSandbox({ ...options, db: file });
    try {
      const again = new Api(second);
      expect(await again.ok("GET", `/cms/api/v1/customer/${customer.id}`)).toMatchObject({
        id: customer.id,
        status: "VERIFIED",
      });
      expect((await again.ok("GET", `/cms/api/v1/bank/${customer.id}/${bank.id}`)).bank_account_status).toBe(
        "VERIFIED",
      );
      expect((await again.ok("GET", `/pos/api/v1/payout/quotation/${quote.id}`)).id).toBe(quote.id);
      expect((await again.ok("GET", `/cms/api/v1/customer/wallet/${customer.id}/${wallet.id}`)).wallet_address).toBe(
        wallet.wallet_address,
      );
      // Indexes are rebuilt: the client_reference_id still finds the customer.
      const same = await again.ok("POST", "/cms/api/v1/customer/create", {
        client_reference_id: customer.client_reference_id,
        full_name: "X",
        alpha_3_country_code: "IND",
      });
      expect(same.id).toBe(customer.id);
      expect((await again.ok("GET", "/_sandbox/events")).count).toBe(2);
      expect((await again.ok("GET", "/_sandbox/clock")).offset_seconds).toBe(60);
      // The registered webhook survives too.
      const next = await again.ok("POST", "/cms/api/v1/customer/wallet/create", {
        customer_id: customer.id,
        wallet_address: "0x3333333333333333333333333333333333333333",
        network: "Ethereum",
      });
      expect(next.id).toBe(wallet.id + 1);
      const payout = await again.ok("POST", "/pos/api/v1/payout/initiate", { quotation_id: quote.id });
      await new Promise((r) => setTimeout(r, 50));
      await second.deliveriesSettled();
      expect(receiver.deliveries.some((d) => d.body.id === payout.id && d.body.event === "SUCCESS")).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("resumes a record's planned steps after a restart", async () => {
    const file = join(dir, "resume.db");
    const first = await createSandbox({ ...options, autoProgressMs: false, db: file });
    const api = new Api(first);
    const customer = await api.ok("POST", "/cms/api/v1/customer/create", {
      client_reference_id: "resume",
      full_name: "Asha",
      alpha_3_country_code: "IND",
    });
    await api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", (await import("./helpers.js")).kycBody(customer.id));
    await first.close();
    const second = await createSandbox({ ...options, db: file });
    try {
      const verified = await waitFor(async () => {
        const found = await new Api(second).ok("GET", `/cms/api/v1/customer/${customer.id}`);
        return found.status !== "UNVERIFIED" && found;
      }, "the resumed KYC step");
      expect(verified.status).toBe("VERIFIED");
    } finally {
      await second.close();
    }
  });

  it("resumes a bank account's planned verification after a restart (the account is stored before it is planned)", async () => {
    const file = join(dir, "resume-bank.db");
    const first = await createSandbox({ ...options, db: file });
    const customer = await verifiedCustomer(new Api(first));
    await first.close();
    const paused = await createSandbox({ ...options, autoProgressMs: false, db: file });
    const bank = await new Api(paused).ok("POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "ACCOUNT_DETAILS",
      identifiers: { account_number: "50100987654321", ifsc: "HDFC0001234" },
    });
    expect(bank.bank_account_status).toBe("PROCESSING");
    await paused.close();
    const second = await createSandbox({ ...options, db: file });
    try {
      await new Promise((r) => setTimeout(r, 50));
      expect((await new Api(second).ok("GET", `/cms/api/v1/bank/${customer.id}/${bank.id}`)).bank_account_status).toBe(
        "VERIFIED",
      );
    } finally {
      await second.close();
    }
  });

  it("writes the file shortly after a mutating request, before close", async () => {
    const file = join(dir, "debounce.db");
    const sandbox = await createSandbox({ ...options, db: file });
    try {
      await new Api(sandbox).ok("POST", "/cms/api/v1/customer/create", {
        client_reference_id: "early",
        full_name: "Asha",
        alpha_3_country_code: "IND",
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(existsSync(file)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
