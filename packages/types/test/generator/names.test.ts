// lib/names.ts: identifiers, aliases, object keys and doc comments of the emitted source.
import { describe, expect, it } from "vitest";
import { componentAliases, docComment, identifierFor, propertyKey, zodName } from "../../scripts/lib/names.ts";
import { specWith } from "./support.ts";

describe("names", () => {
  it.each([
    { name: "Customer", identifier: "Customer" },
    { name: "bank_account", identifier: "bank_account" },
    { name: "bank-account", identifier: "BankAccount" },
    { name: "payin.refund status", identifier: "PayinRefundStatus" },
    { name: "3ds-result", identifier: "_3dsResult" },
  ])("the identifier of the component $name is $identifier", ({ name, identifier }) => {
    expect(identifierFor(name)).toBe(identifier);
  });

  it.each([
    { name: "amount", key: "amount" },
    { name: "$id", key: "$id" },
    { name: "content-type", key: '"content-type"' },
    { name: "2fa", key: '"2fa"' },
    { name: "", key: '""' },
  ])("the object key of $name is $key", ({ name, key }) => {
    expect(propertyKey(name)).toBe(key);
  });

  it("names a component's zod schema after its alias", () => {
    expect(zodName("Customer")).toBe("CustomerSchema");
  });

  it("gives each component an alias in document order, suffixing reserved names with Base", () => {
    const aliases = componentAliases(specWith({ "bank-account": {}, WebhookEvent: {}, operations: {}, Customer: {} }));
    expect([...aliases]).toEqual([
      ["bank-account", "BankAccount"],
      ["WebhookEvent", "WebhookEventBase"],
      ["operations", "operationsBase"],
      ["Customer", "Customer"],
    ]);
  });

  it("refuses two components that would get the same alias", () => {
    expect(() => componentAliases(specWith({ "bank-account": {}, BankAccount: {} }))).toThrow(
      'Components "bank-account" and "BankAccount" both map to the alias BankAccount',
    );
  });
});

describe("docComment", () => {
  it.each([
    { behaviour: "no text gives no comment", text: undefined, comment: "" },
    { behaviour: "empty text gives no comment", text: "", comment: "" },
    { behaviour: "one line is one line of the block", text: "A customer.", comment: "/**\n * A customer.\n */\n" },
    {
      behaviour: "a blank line stays blank, without a trailing space",
      text: "First.\n\nSecond.",
      comment: "/**\n * First.\n *\n * Second.\n */\n",
    },
    { behaviour: "surrounding whitespace is trimmed", text: "\n  Padded.  \n", comment: "/**\n * Padded.\n */\n" },
    {
      behaviour: "a comment end in the text is escaped",
      text: "Matches a/*/b.",
      comment: "/**\n * Matches a/*\\/b.\n */\n",
    },
  ])("$behaviour", ({ text, comment }) => {
    expect(docComment(text)).toBe(comment);
  });
});
