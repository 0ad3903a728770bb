// What each tool may do, from its operation's facts: the kind, the gate and the annotations, as tables.
import { describe, expect, it } from "vitest";
import { generatedTools } from "../src/generated/tools.js";
import { annotationsOf, missingFlag, toolKind } from "../src/safety.js";

// [method, tag, retry class] -> kind, readOnly, destructive, idempotent, openWorld
const table = [
  ["GET", "Customers", "safe", "read", true, false, true, false],
  ["POST", "Payins", "safe", "quote", false, false, true, false],
  ["POST", "Payouts", "safe", "quote", false, false, true, false],
  ["POST", "Customers", "safe-by-reference", "write", false, false, true, false],
  ["POST", "KYC", "unsafe", "write", false, false, false, false],
  ["PATCH", "KYC", "unsafe", "write", false, true, false, false],
  ["DELETE", "Bank accounts", "safe-delete", "write", false, true, true, false],
  ["POST", "Organization", "safe", "write", false, false, true, false],
  ["POST", "Payins", "unsafe", "write", false, false, false, false],
  ["POST", "Payins", "guarded", "order", false, true, false, true],
  ["POST", "Payouts", "guarded", "order", false, true, false, true],
] as const;

describe.each(table)("%s %s (%s)", (method, tag, idempotency, kind, readOnly, destructive, idempotent, openWorld) => {
  const facts = { method, tag, idempotency };
  it(`is a ${kind}`, () => expect(toolKind(facts)).toBe(kind));
  it("carries the annotations of its kind and class", () =>
    expect(annotationsOf(facts)).toEqual({
      readOnlyHint: readOnly,
      destructiveHint: destructive,
      idempotentHint: idempotent,
      openWorldHint: openWorld,
    }));
});

// kind -> the flag a call needs with no flags, with --allow-writes, with --allow-orders
const gates = [
  ["read", undefined, undefined, undefined],
  ["quote", undefined, undefined, undefined],
  ["write", "--allow-writes", undefined, "--allow-writes"],
  ["order", "--allow-orders", "--allow-orders", undefined],
] as const;

describe.each(gates)("a %s", (kind, none, writes, orders) => {
  const facts = table.find((row) => row[3] === kind)!;
  const op = { method: facts[0], tag: facts[1], idempotency: facts[2] };
  it("needs its flag, and only its flag", () => {
    expect(missingFlag(op, {})).toBe(none);
    expect(missingFlag(op, { allowWrites: true })).toBe(writes);
    expect(missingFlag(op, { allowOrders: true })).toBe(orders);
    expect(missingFlag(op, { allowWrites: true, allowOrders: true })).toBeUndefined();
  });
});

it("classes the spec's 42 operations as 22 reads, 3 quotes, 15 record writes and the 2 initiates as orders", () => {
  const byKind: Record<string, string[]> = {};
  for (const tool of generatedTools) (byKind[toolKind(tool)] ??= []).push(tool.name);
  expect(byKind.order).toEqual(["initiatePayin", "initiatePayout"]);
  expect(byKind.quote).toEqual(["createPayinQuotation", "createPayoutQuotation", "createRemittancePayoutQuotation"]);
  expect(byKind.write).toEqual([
    "createCustomer",
    "addKycData",
    "updateKycSelfie",
    "updateKycTaxInfo",
    "updateKycDocumentInfo",
    "addPayoutSenderKycData",
    "createKycRemitter",
    "createBankAccount",
    "deleteBankAccount",
    "createBankAccountForPayout",
    "generateBankLink",
    "deleteWallet",
    "savePayinEdd",
    "savePayoutEdd",
    "registerWebhook",
  ]);
  expect(byKind.read).toHaveLength(22);
});
