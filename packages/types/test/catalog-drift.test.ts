// The other packages import the catalog's lists (webhook types, events, statuses, reasons) from this package
// rather than typing them again. This test reads their sources (src/ and scripts/, generated files left out) and
// fails on a list typed by hand: an array literal or a union of string literals holding two or more values of one
// catalog list. Single values stay allowed: a state machine names the status it moves to, and those names are
// typed by the catalog's unions, so a value the spec drops fails to type-check there.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { recordStatuses, webhookEventsByType, webhookEventTypes, webhookMetadataRules } from "../src/index.js";

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Every list of the catalog with two values or more, by a name that says where it comes from. */
type CatalogList = [name: string, values: readonly string[]];

const catalogLists: CatalogList[] = [
  ["webhookEventTypes", webhookEventTypes] as CatalogList,
  ...Object.entries(webhookEventsByType).map(([type, events]): CatalogList => [`webhookEventsByType.${type}`, events]),
  ...Object.entries(recordStatuses).map(([record, values]): CatalogList => [`recordStatuses.${record}`, values]),
  ...Object.entries(webhookMetadataRules).flatMap(([type, events]) =>
    Object.entries(events).flatMap(([event, rules]) =>
      Object.entries(rules as Record<string, { values?: readonly string[] }>).flatMap(([key, rule]): CatalogList[] =>
        rule.values ? [[`webhookMetadataRules.${type}.${event}.${key}`, rule.values]] : [],
      ),
    ),
  ),
].filter(([, values]) => values.length >= 2);

interface RetypedList {
  line: number;
  list: string;
  values: string[];
}

const QUOTED = /"([^"\n]*)"|'([^'\n]*)'/g;

/** The lists of string literals in a source: array literals of strings and unions of string literal types. */
function literalLists(source: string): { line: number; values: string[] }[] {
  const found: { line: number; values: string[] }[] = [];
  const lineAt = (index: number) => source.slice(0, index).split("\n").length;
  const collect = (text: string, index: number) => {
    const values = [...text.matchAll(QUOTED)].map((m) => m[1] ?? m[2]!);
    if (values.length >= 2) found.push({ line: lineAt(index), values });
  };
  // Arrays of objects are sequences of moves (a plan), not lists of names: only flat arrays count.
  for (const m of source.matchAll(/\[([^[\]{}]*)\]/g)) collect(m[1]!, m.index);
  for (const m of source.matchAll(/(?:(?:"[^"\n]*"|'[^'\n]*')\s*\|\s*)+(?:"[^"\n]*"|'[^'\n]*')/g))
    collect(m[0], m.index);
  return found;
}

/** The hand-typed catalog lists in a source: literal lists sharing two or more values with one catalog list. */
function retypedLists(source: string): RetypedList[] {
  const out: RetypedList[] = [];
  for (const { line, values } of literalLists(source)) {
    for (const [list, catalog] of catalogLists) {
      const shared = [...new Set(values.filter((v) => catalog.includes(v)))];
      if (shared.length >= 2) out.push({ line, list, values: shared });
    }
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" || name === "node_modules" ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * Lists that share values with the catalog and are not copies of it: by file, the values allowed there and why.
 */
const NOT_COPIES: Record<string, { values: string[]; why: string }[]> = {
  "client/src/resources.ts": [
    // Which statuses end a wait is the client's reading (the spec marks none final); typed by the catalog's unions.
    { values: ["SUCCESS", "FAILED", "REFUNDED"], why: "the order statuses that end waitFor" },
    { values: ["VERIFIED", "FAILED"], why: "the verification statuses that end waitForKyc and banks.waitFor" },
  ],
  "sandbox/src/api/quotation-request.ts": [
    {
      values: ["PAYIN", "PAYOUT"],
      why: "the prefix of the order modules' error codes (PAYIN_..., PAYOUT_...): order kinds",
    },
  ],
};

describe("the other packages", () => {
  const packages = readdirSync(packagesDir).filter((name) => name !== "types");
  const files = packages.flatMap((pkg) =>
    ["src", "scripts"].flatMap((part) => sourceFiles(join(packagesDir, pkg, part))),
  );

  it("are read: every package with sources", () => {
    expect(packages).toEqual(expect.arrayContaining(["cli", "client", "sandbox", "webhook-verify"]));
    expect(files.length).toBeGreaterThan(50);
  });

  it("type no list of the catalog again: they import it from @exchange-kit/types", () => {
    const retyped = files.flatMap((file) => {
      const name = relative(packagesDir, file).split("\\").join("/");
      const allowed = NOT_COPIES[name] ?? [];
      return retypedLists(readFileSync(file, "utf8"))
        .filter((hit) => !allowed.some((entry) => hit.values.every((v) => entry.values.includes(v))))
        .map((hit) => `${name}:${hit.line} ${hit.list}: ${hit.values.join(", ")}`);
    });
    expect(retyped).toEqual([]);
  });
});

describe("the drift check", () => {
  it.each([
    ["an array of statuses", 'const STATUSES = ["PROCESSING", "SUCCESS", "FAILED"];'],
    ["a union of event names", 'type PayoutEvent = "SUCCESS" | "IN_REVIEW";'],
    ["an array of failure reasons", "const reasons = ['PENNY_DROP_FAILED', 'NAME_MISMATCH'];"],
    ["webhook types", 'const TYPES = ["CUSTOMER", "BANK", "PAYIN", "PAYOUT", "EDD"] as const;'],
  ])("finds %s typed by hand", (_, source) => {
    expect(retypedLists(source)).not.toEqual([]);
  });

  it.each([
    ["a single status", 'if (status === "IN_REVIEW") emit();'],
    ["a plan of moves", '[{ status: "REFUND_INITIATED" }, { status: "REFUNDED" }]'],
    ["a list of other names", 'const KEYS = ["type", "id", "event", "timestamp", "metadata"];'],
  ])("leaves %s alone", (_, source) => {
    expect(retypedLists(source)).toEqual([]);
  });
});
