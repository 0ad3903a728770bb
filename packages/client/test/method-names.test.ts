import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createExchangeClient,
  listOperations,
  type ExchangeClient,
  type OperationId,
  type ResourceMethod,
} from "../src/index.js";
import { specOperations } from "./support/spec.js";

// The whole generated API, as it was named before the methods were generated: the names must not change. The
// generator derives them (the rule is method-names in @exchange-kit/spec-tools) from tags and operationIds; this table is the contract.
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
} as const satisfies { [Id in OperationId]: string };

describe("method naming", () => {
  it("names every operation's method as before", () => {
    for (const op of listOperations()) {
      expect(`${op.group}.${op.name}`, op.operationId).toBe(DERIVED[op.operationId as OperationId]);
    }
  });

  it("types each generated method from its operation", () => {
    expectTypeOf<ExchangeClient["banks"]["list"]["operationId"]>().toEqualTypeOf<"listBankAccounts">();
    expectTypeOf<ExchangeClient["payouts"]["createQuotation"]>().toMatchTypeOf<
      ResourceMethod<"createPayoutQuotation">
    >();
    expectTypeOf<ExchangeClient["organization"]["registerWebhook"]["operationId"]>().toEqualTypeOf<"registerWebhook">();
  });

  it("derives a method for every operation in the spec and no other", () => {
    const inSpec = specOperations()
      .map((op) => op.operationId)
      .sort();
    expect(
      listOperations()
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(inSpec);
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
