// The dashboard's record browser beyond one kind: a search across every kind by ID or client_reference_id, and a
// short name on every listed record. Always the session's organization only.
import { describe, expect, it } from "vitest";
import { recordName } from "../../src/dashboard/record-kinds.js";
import { Api, createCustomer, startSandbox } from "../helpers.js";
import { openDashboard } from "./session.js";

describe("searching every kind of record", () => {
  it("finds a record of any kind by its ID, answering its kind", async () => {
    const sandbox = await startSandbox();
    const customer = await createCustomer(new Api(sandbox), { full_name: "Ravi Kumar" });
    const session = await openDashboard(sandbox);
    const found = (await session.get(`records?kind=all&q=${customer.id}`)).body;
    expect(found.results).toEqual([
      expect.objectContaining({ kind: "customers", id: customer.id, name: "Ravi Kumar", status: "UNVERIFIED" }),
    ]);
  });

  it("never finds another organization's record", async () => {
    const sandbox = await startSandbox();
    const customer = await createCustomer(new Api(sandbox));
    const other = await openDashboard(sandbox, 1);
    expect((await other.get(`records?kind=all&q=${customer.id}`)).body.results).toEqual([]);
    expect((await other.get(`records?kind=all&q=${customer.client_reference_id}`)).body.results).toEqual([]);
  });

  it("answers a search of every kind without q with a 400 naming q", async () => {
    const session = await openDashboard(await startSandbox());
    const answer = await session.get("records?kind=all");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ err_code: "REQ_FIELD_MISSING", errors: { q: [expect.any(String)] } });
  });
});

describe("a record's name in lists", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["customers", { full_name: "Asha Verma", email: "a@example.com" }, "Asha Verma"],
    ["customers", { full_name: "", email: "a@example.com" }, "a@example.com"],
    ["banks", { beneficiary_name: "ASHA VERMA", bank_name: "HDFC" }, "ASHA VERMA"],
    ["wallets", { label: "", wallet_address: "0xabc" }, "0xabc"],
    ["payins", { sending_amount: "1000.00", fiat: "INR" }, "1000.00 INR"],
    ["payouts", { receiving_amount: "2600.00" }, ""],
    ["unknown_kind", { full_name: "x" }, ""],
  ])("of %s %j is %j", (kind, row, name) => {
    expect(recordName(kind, row)).toBe(name);
  });
});
