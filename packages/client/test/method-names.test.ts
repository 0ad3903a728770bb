import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createExchangeClient,
  groupOfTag,
  listOperations,
  methodNameOf,
  type GroupOf,
  type GroupOfTag,
  type MethodNameOf,
  type MethodNameOfOperation,
  type OperationId,
} from "../src/index.js";
import { specOperations } from "./support/spec.js";

// The whole derived API. `satisfies` makes the compiler compute each entry with the type-level rule (the
// template literal types), so this table, the types and the runtime (checked below) all agree.
const DERIVED = {
  createCustomer: "customers.create",
  listCustomers: "customers.list",
  getCustomer: "customers.get",
  getKycConfiguration: "kyc.getConfiguration",
  addKycData: "kyc.addData",
  updateKycSelfie: "kyc.updateSelfie",
  updateKycTaxInfo: "kyc.updateTaxInfo",
  updateKycDocumentInfo: "kyc.updateDocumentInfo",
  addPayoutSenderKycData: "kyc.addPayoutSenderData",
  createKycRemitter: "kyc.createRemitter",
  createBankAccount: "banks.create",
  listBankAccounts: "banks.list",
  getBankAccount: "banks.get",
  deleteBankAccount: "banks.delete",
  createBankAccountForPayout: "banks.createForPayout",
  generateBankLink: "banks.generateLink",
  getWallet: "wallets.get",
  deleteWallet: "wallets.delete",
  getPayinConfiguration: "payins.getConfiguration",
  getPayinLimits: "payins.getLimits",
  fetchPayinRate: "payins.fetchRate",
  createPayinQuotation: "payins.createQuotation",
  getPayinQuotation: "payins.getQuotation",
  initiatePayin: "payins.initiate",
  listPayinHistory: "payins.listHistory",
  savePayinEdd: "payins.saveEdd",
  listPayinEdd: "payins.listEdd",
  getPayin: "payins.get",
  listPrefundedPayoutHistory: "payouts.listPrefundedHistory",
  getPrefundedPayoutConfiguration: "payouts.getPrefundedConfiguration",
  createPayoutQuotation: "payouts.createQuotation",
  createRemittancePayoutQuotation: "payouts.createRemittanceQuotation",
  getPayoutConfiguration: "payouts.getConfiguration",
  getPayoutLimits: "payouts.getLimits",
  fetchPayoutRate: "payouts.fetchRate",
  getPayoutQuotation: "payouts.getQuotation",
  initiatePayout: "payouts.initiate",
  listPayoutHistory: "payouts.listHistory",
  savePayoutEdd: "payouts.saveEdd",
  listPayoutEdd: "payouts.listEdd",
  getPayout: "payouts.get",
  registerWebhook: "organization.registerWebhook",
} as const satisfies { [Id in OperationId]: `${GroupOf<Id>}.${MethodNameOfOperation<Id>}` };

describe("method naming", () => {
  it("maps each tag to its group", () => {
    expect(
      ["Customers", "KYC", "Bank accounts", "Wallets", "Payins", "Payouts", "Organization"].map(groupOfTag),
    ).toEqual(["customers", "kyc", "banks", "wallets", "payins", "payouts", "organization"]);
  });

  it("turns an unknown tag into its camelCase", () => {
    expect(groupOfTag("Widget sessions")).toBe("widgetSessions");
    expectTypeOf<GroupOfTag<"Widget sessions">>().toEqualTypeOf<"widgetSessions">();
  });

  it("removes the group's noun from the operationId", () => {
    expect(methodNameOf("createCustomer", "customers")).toBe("create");
    expect(methodNameOf("listBankAccounts", "banks")).toBe("list");
    expect(methodNameOf("createPayoutQuotation", "payouts")).toBe("createQuotation");
    expect(methodNameOf("getKycConfiguration", "kyc")).toBe("getConfiguration");
    expect(methodNameOf("initiatePayin", "payins")).toBe("initiate");
    expect(methodNameOf("listPayinHistory", "payins")).toBe("listHistory");
  });

  it("prefers the longest noun of the group", () => {
    expect(methodNameOf("createBankAccountForPayout", "banks")).toBe("createForPayout");
    expect(methodNameOf("generateBankLink", "banks")).toBe("generateLink");
  });

  it("removes a noun only at a word boundary", () => {
    expect(methodNameOf("getPayinsx", "payins")).toBe("getPayinsx");
    expect(methodNameOf("getPayinLimits", "payins")).toBe("getLimits");
  });

  it("keeps the operationId when no noun of the group is in it", () => {
    expect(methodNameOf("registerWebhook", "organization")).toBe("registerWebhook");
    expect(methodNameOf("startSession", "widgetSessions")).toBe("startSession");
  });

  it("computes the same names at the type level as at runtime", () => {
    expectTypeOf<MethodNameOf<"listBankAccounts", "banks">>().toEqualTypeOf<"list">();
    expectTypeOf<MethodNameOf<"createBankAccountForPayout", "banks">>().toEqualTypeOf<"createForPayout">();
    expectTypeOf<MethodNameOf<"getPayinsx", "payins">>().toEqualTypeOf<"getPayinsx">();
    expectTypeOf<MethodNameOf<"registerWebhook", "organization">>().toEqualTypeOf<"registerWebhook">();
    expectTypeOf<MethodNameOf<"startSession", "widgetSessions">>().toEqualTypeOf<"startSession">();
    for (const op of listOperations()) {
      expect(`${op.group}.${op.name}`, op.operationId).toBe(DERIVED[op.operationId as OperationId]);
    }
  });

  it("derives a method for every operation in the spec and no other", () => {
    const inSpec = specOperations().map((op) => op.operationId).sort();
    expect(listOperations().map((op) => op.operationId).sort()).toEqual(inSpec);
    expect(Object.keys(DERIVED).sort()).toEqual(inSpec);
  });

  it("gives no two operations the same method", () => {
    const names = listOperations().map((op) => `${op.group}.${op.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it("puts every derived method on the client under its group and name", () => {
    const client = createExchangeClient({ baseUrl: "https://exchange.test", apiKey: "k", apiSecret: "s" });
    for (const [operationId, dotted] of Object.entries(DERIVED)) {
      const [group, name] = dotted.split(".") as [string, string];
      const method = (client as unknown as Record<string, Record<string, { operationId: string }>>)[group]![name]!;
      expect(method.operationId).toBe(operationId);
    }
  });

  it("keeps the operation index in step with the spec's methods, paths and tags", () => {
    const byId = new Map(listOperations().map((op) => [op.operationId, op]));
    for (const op of specOperations()) {
      const derived = byId.get(op.operationId)!;
      expect([derived.method, derived.path, derived.tag]).toEqual([op.method, op.path, op.tag]);
      const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(derived.pathParams).toEqual(pathParams);
    }
  });
});
