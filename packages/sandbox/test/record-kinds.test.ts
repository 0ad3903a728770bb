// The record-kind registry (src/record-kinds.ts): every kind of record that announces webhook events is named
// there once, and the store, the control API's routes and the dashboard follow it. What users type stays what
// it was (the control API's paths, the CLI's words), and a --db file written before the registry opens unchanged.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { webhookEventTypes } from "@exchange-kit/types";
import { afterAll, describe, expect, it } from "vitest";
import { createSandbox, transitionPath } from "../src/index.js";
import { RECORD_KINDS, RECORD_TYPES } from "../src/record-kinds.js";
import { Store } from "../src/store/store.js";
import { Api, ORG_A } from "./helpers.js";
import type { V1Ids } from "./fixtures/write-v1-db.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-record-kinds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const ids = JSON.parse(readFileSync(fixture("v1-main.json"), "utf8")) as V1Ids;

/** A copy of the file main's sandbox wrote (test/fixtures/write-v1-db.ts), to open and change. */
function mainFile(name: string): string {
  const file = join(dir, name);
  writeFileSync(file, gunzipSync(readFileSync(fixture("v1-main.db.gz"))));
  return file;
}

/** Every table, index and trigger of a file with the statement that made it. */
function schemaOf(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").all();
    return rows.map((r) => `${r.type} ${r.name}: ${r.sql}`);
  } finally {
    db.close();
  }
}

describe("the registry", () => {
  it("has one kind for each webhook event type of the spec, in the spec's order", () => {
    expect(RECORD_TYPES).toEqual([...webhookEventTypes]);
  });

  it("keeps the control API's transition paths, which the CLI's trigger calls, as users type them", () => {
    expect(RECORD_TYPES.map((type) => transitionPath(type, "ID"))).toEqual([
      "/_sandbox/customers/ID/transition",
      "/_sandbox/banks/ID/transition",
      "/_sandbox/payins/ID/transition",
      "/_sandbox/payouts/ID/transition",
      "/_sandbox/edd/ID/transition",
    ]);
  });

  it("encodes the ID it puts in a transition path", () => {
    expect(transitionPath("BANK", "a/b c")).toBe("/_sandbox/banks/a%2Fb%20c/transition");
  });

  it("gives the store a member per kind, named by its collection, holding the kind's table", async () => {
    const store = await Store.open();
    try {
      for (const type of RECORD_TYPES) {
        const member = (store as unknown as Record<string, unknown>)[RECORD_KINDS[type].collection];
        expect(member).toBe(store.recordTable(type));
        expect(store.recordTable(type).kind).toBe(RECORD_KINDS[type].table.kind);
      }
    } finally {
      await store.close();
    }
  });
});

describe("a --db file written by main before the registry (schema version 1)", () => {
  it("has exactly the tables, indexes and triggers this sandbox creates in a new file, less those added since", async () => {
    const fresh = join(dir, "fresh.db");
    const sandbox = await createSandbox({ db: fresh, organizations: [ORG_A] });
    await sandbox.close();
    // Schema 2's organization table (its unique id's index and its planned-rows index), and the dashboard's links
    // and sessions and the request log's counter (created at start, beside the schema).
    const added = schemaOf(fresh).filter((line) =>
      /^\w+ (sqlite_autoindex_)?(organization|dashboard_grant|request_log_seq)(_\w+)?: /.test(line),
    );
    expect(added.map((line) => line.split(":")[0])).toEqual([
      "index dashboard_grant_expiry",
      "index dashboard_grant_org",
      "index organization_planned",
      "index sqlite_autoindex_dashboard_grant_1",
      "index sqlite_autoindex_organization_1",
      "index sqlite_autoindex_request_log_seq_1",
      "table dashboard_grant",
      "table organization",
      "table request_log_seq",
    ]);
    expect(schemaOf(fresh).filter((line) => !added.includes(line))).toEqual(schemaOf(mainFile("compare.db")));
  });

  it("is upgraded when opened to exactly the schema of a new file", async () => {
    const fresh = join(dir, "fresh-for-upgrade.db");
    await (await createSandbox({ db: fresh, organizations: [ORG_A] })).close();
    const upgraded = mainFile("upgraded.db");
    await (await createSandbox({ db: upgraded, organizations: [ORG_A] })).close();
    expect(schemaOf(upgraded)).toEqual(schemaOf(fresh));
  });

  it("opens, and answers every record main stored", async () => {
    const sandbox = await createSandbox({ db: mainFile("read.db"), organizations: [ORG_A], autoProgressMs: false });
    try {
      const api = new Api(sandbox);
      expect(await api.ok("GET", `/cms/api/v1/customer/${ids.customer}`)).toMatchObject({ status: "VERIFIED" });
      expect(await api.ok("GET", `/cms/api/v1/bank/${ids.customer}/${ids.bank}`)).toMatchObject({
        bank_account_status: "VERIFIED",
      });
      expect(await api.ok("GET", `/pis/api/v1/payin/${ids.payin}`)).toMatchObject({ status: "PROCESSING" });
      expect(await api.ok("GET", `/pos/api/v1/payout/${ids.payout}`)).toMatchObject({ status: "PROCESSING" });
      const edd = await api.ok("GET", `/pos/api/v1/payout/edd/list?customer_id=${ids.customer}`);
      expect(edd.map((e: { id: string }) => e.id)).toEqual([ids.edd]);
      expect(await api.ok("GET", `/cms/api/v1/customer/wallet/${ids.customer}/${ids.wallet}`)).toMatchObject({
        id: ids.wallet,
      });
    } finally {
      await sandbox.close();
    }
  });

  it("opens, and the control API moves a record of every kind main stored, emitting its event", async () => {
    const file = mainFile("move.db");
    const sandbox = await createSandbox({ db: file, organizations: [ORG_A], autoProgressMs: false });
    try {
      const api = new Api(sandbox);
      const moves: Array<[type: (typeof RECORD_TYPES)[number], id: string, status: string]> = [
        ["CUSTOMER", ids.customer, "FAILED"],
        ["BANK", ids.bank, "FAILED"],
        ["PAYIN", ids.payin, "SUCCESS"],
        ["PAYOUT", ids.payout, "SUCCESS"],
        ["EDD", ids.edd, "VERIFIED"],
      ];
      for (const [type, id, status] of moves) {
        const moved = await api.ok("POST", transitionPath(type, id), { status });
        expect(moved.event.body).toMatchObject({ type, id, event: status });
      }
    } finally {
      await sandbox.close();
    }
    // And the file is still one a sandbox opens, with the moves kept.
    const again = await createSandbox({ db: file, organizations: [ORG_A], autoProgressMs: false });
    try {
      expect(await new Api(again).ok("GET", `/pos/api/v1/payout/${ids.payout}`)).toMatchObject({ status: "SUCCESS" });
    } finally {
      await again.close();
    }
  });
});
