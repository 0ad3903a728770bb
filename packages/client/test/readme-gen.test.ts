// scripts/lib/readme-gen.ts: the idempotency table of README.md, and the marked block it is written into.
import { describe, expect, it } from "vitest";
import type { Operation } from "@exchange-kit/spec-tools/spec";
import { idempotencyTable, replaceBlock } from "../scripts/lib/readme-gen.ts";

const op = (operationId: string, idempotency: unknown): Operation => ({
  operationId,
  tags: ["Customers"],
  "x-idempotency": idempotency,
});

describe("idempotencyTable", () => {
  it("writes one row per operation, in spec order, with its method, route and class", () => {
    const spec = {
      paths: {
        "/customers": { get: op("listCustomers", "safe"), post: op("createCustomer", "guarded") },
        "/customers/{id}/kyc": { put: op("addKycData", "unsafe") },
      },
    };
    expect(idempotencyTable(spec).split("\n")).toEqual([
      "| method | operation | class | after an uncertain failure |",
      "| - | - | - | - |",
      "| `customers.list` | listCustomers (GET `/customers`) | **safe** | repeated after any retryable failure |",
      "| `customers.create` | createCustomer (POST `/customers`) | **guarded** | repeated only after the history shows no order with its client_reference_id |",
      "| `customers.addKycData` | addKycData (PUT `/customers/{id}/kyc`) | **unsafe** | repeated only when the request provably did not reach the service; else ExchangeAmbiguousResultError |",
    ]);
  });

  it.each([
    { behaviour: "an operation without x-idempotency", idempotency: undefined, error: "(undefined)" },
    { behaviour: "an x-idempotency that is not a class", idempotency: "idempotent", error: "(idempotent)" },
    { behaviour: "an x-idempotency named like an Object member", idempotency: "toString", error: "(toString)" },
  ])("refuses $behaviour", ({ idempotency, error }) => {
    const spec = { paths: { "/customers": { get: op("getCustomer", idempotency) } } };
    expect(() => idempotencyTable(spec)).toThrow(`getCustomer: x-idempotency missing or unknown ${error}`);
  });
});

describe("replaceBlock", () => {
  it.each([
    {
      behaviour: "replaces what is between the markers, keeping the text around them",
      text: "intro\n<!-- generated:t -->\nold\nrows\n<!-- /generated:t -->\noutro\n",
      replaced: "intro\n<!-- generated:t -->\nnew\n<!-- /generated:t -->\noutro\n",
    },
    {
      behaviour: "fills an empty block",
      text: "<!-- generated:t --><!-- /generated:t -->",
      replaced: "<!-- generated:t -->\nnew\n<!-- /generated:t -->",
    },
    {
      behaviour: "leaves the blocks of other names as they are",
      text: "<!-- generated:u -->\nu\n<!-- /generated:u -->\n<!-- generated:t -->\nt\n<!-- /generated:t -->",
      replaced: "<!-- generated:u -->\nu\n<!-- /generated:u -->\n<!-- generated:t -->\nnew\n<!-- /generated:t -->",
    },
  ])("$behaviour", ({ text, replaced }) => {
    expect(replaceBlock(text, "t", "new")).toBe(replaced);
  });

  it("gives the same text when run again", () => {
    const once = replaceBlock("<!-- generated:t -->\nold\n<!-- /generated:t -->\n", "t", "new");
    expect(replaceBlock(once, "t", "new")).toBe(once);
  });

  it.each([
    { behaviour: "a text without the block", text: "no markers\n" },
    { behaviour: "a text without the start marker", text: "old\n<!-- /generated:t -->\n" },
    { behaviour: "a text without the end marker", text: "<!-- generated:t -->\nold\n" },
    { behaviour: "a text whose end marker comes first", text: "<!-- /generated:t -->\n<!-- generated:t -->\n" },
    { behaviour: "a text with the block of another name only", text: "<!-- generated:u -->\n<!-- /generated:u -->\n" },
  ])("refuses $behaviour", ({ text }) => {
    expect(() => replaceBlock(text, "t", "new")).toThrow(
      "README.md has no <!-- generated:t --> ... <!-- /generated:t --> block",
    );
  });
});
