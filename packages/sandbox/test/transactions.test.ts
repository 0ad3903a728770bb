import { afterEach, describe, expect, it, vi } from "vitest";
import { Table } from "../src/store/store.js";
import {
  Api,
  payoutQuotationBody,
  startReceiver,
  startSandbox,
  verifiedBank,
  verifiedCustomer,
  waitFor,
} from "./helpers.js";

afterEach(() => vi.restoreAllMocks());

/** Makes the next write of a row of `kind` throw, as a failing disk or a bug after a partial write would. */
function failNextWriteOf(kind: string): void {
  const put = Table.prototype.put;
  let armed = true;
  vi.spyOn(Table.prototype, "put").mockImplementation(function (this: Table<{ id: string; org: string }>, row) {
    if (armed && this.kind === kind) {
      armed = false;
      throw new Error(`injected failure writing a ${kind}`);
    }
    return put.call(this, row);
  });
}

describe("one transaction per request", () => {
  it("leaves no trace of a payout initiation that fails after its quotation was written, and sends no webhook", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const receiver = await startReceiver();
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", { webhook_url: receiver.url });
    const customer = await verifiedCustomer(api);
    const bank = await verifiedBank(api, customer.id);
    await sandbox.deliveriesSettled();
    const eventsBefore = (await api.ok("GET", "/_sandbox/events")).count;
    const quote = await api.ok("POST", "/pos/api/v1/payout/quotation", payoutQuotationBody(customer.id, bank.id));

    // initiatePayout writes the quotation (now backing the order) first, then the payout: the second write fails.
    failNextWriteOf("payout");
    const failed = await api.post("/pos/api/v1/payout/initiate", {
      quotation_id: quote.id,
      client_reference_id: "rolled-back",
    });
    expect(failed.status).toBe(500);
    vi.restoreAllMocks();

    expect((await api.ok("GET", "/pos/api/v1/payout/history")).count).toBe(0);
    // Had the quotation write survived, it would now be "linked" to the failed order.
    const payout = await api.ok("POST", "/pos/api/v1/payout/initiate", {
      quotation_id: quote.id,
      client_reference_id: "rolled-back",
    });
    expect(payout.client_reference_id).toBe("rolled-back");
    await waitFor(
      async () => (await api.ok("GET", `/pos/api/v1/payout/${payout.id}`)).status === "SUCCESS",
      "payout SUCCESS",
    );
    await sandbox.deliveriesSettled();
    const events = await api.ok("GET", "/_sandbox/events");
    expect(events.count).toBe(eventsBefore + 1);
    expect(receiver.deliveries.filter((d) => d.body.type === "PAYOUT").map((d) => d.body.id)).toEqual([payout.id]);
  });

  it("rolls back a KYC submission whose plan was stored when the customer write fails, so the resend is accepted", async () => {
    const sandbox = await startSandbox({ autoProgressMs: false });
    const api = new Api(sandbox);
    const customer = await api.ok("POST", "/cms/api/v1/customer/create", {
      client_reference_id: "kyc-rollback",
      full_name: "Asha Rao",
      alpha_3_country_code: "IND",
    });
    const { kycBody } = await import("./helpers.js");
    // The plan is written with the customer row, then the customer is written again: fail that second write.
    const put = Table.prototype.put;
    let customerWrites = 0;
    vi.spyOn(Table.prototype, "put").mockImplementation(function (this: Table<{ id: string; org: string }>, row) {
      if (this.kind === "customer" && ++customerWrites === 2) throw new Error("injected failure after a partial write");
      return put.call(this, row);
    });
    expect((await api.post("/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id))).status).toBe(500);
    expect(customerWrites).toBe(2);
    vi.restoreAllMocks();
    const stored = await api.ok("GET", `/cms/api/v1/customer/${customer.id}`);
    expect(stored.status).toBe("UNVERIFIED");
    const resent = await api.post("/cms/api/v1/kyc/add-kyc-data", kycBody(customer.id));
    expect(resent.status).toBe(200);
  });
});
