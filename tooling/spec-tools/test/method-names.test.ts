// method-names.ts: the client's groups and method names, from the spec's tags and operationIds.
import { describe, expect, it } from "vitest";
import { groupOfTag, methodNameOf } from "../src/method-names.ts";

describe("the group of a tag", () => {
  it.each([
    ["Customers", "customers"],
    ["Bank accounts", "banks"],
    ["Organization", "organization"],
    ["Risk checks", "riskChecks"],
    ["Reports", "reports"],
  ])("of %s is %s", (tag, group) => {
    expect(groupOfTag(tag)).toBe(group);
  });
});

describe("the method name of an operationId", () => {
  it.each([
    ["createCustomer", "customers", "create"],
    ["listBankAccounts", "banks", "list"],
    ["generateBankLink", "banks", "generateLink"],
    ["createPayoutQuotation", "payouts", "createQuotation"],
    ["registerWebhook", "organization", "registerWebhook"],
    // A noun at the start is no noun removed; nor is one followed by a lower-case letter.
    ["CustomerList", "customers", "CustomerList"],
    ["getPayinsettings", "payins", "getPayinsettings"],
    // An unknown group has no nouns.
    ["createReport", "reports", "createReport"],
  ])("%s in %s is %s", (operationId, group, name) => {
    expect(methodNameOf(operationId, group)).toBe(name);
  });
});
