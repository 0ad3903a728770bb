import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import {
  APPLICATION_ID,
  type FileFacts,
  headerApplicationId,
  judgeFile,
  readFacts,
  VERSION_1_TABLES,
  type Verdict,
} from "../src/store/file-identity.js";
import { SCHEMA_SQL, SCHEMA_VERSION } from "../src/store/schema.js";

const OTHER_ID = 0x12345678;

describe("whether the sandbox may open a file, from its facts", () => {
  const table: Array<[string, FileFacts, Verdict]> = [
    ["a new, empty file", { applicationId: 0, userVersion: 0, tables: [] }, { open: "fresh" }],
    [
      "a sandbox file of version 1 (upgraded when opened)",
      { applicationId: APPLICATION_ID, userVersion: 1, tables: VERSION_1_TABLES },
      { open: "ours" },
    ],
    [
      "a sandbox file of version 2",
      { applicationId: APPLICATION_ID, userVersion: 2, tables: [...VERSION_1_TABLES, "organization"] },
      { open: "ours" },
    ],
    [
      "a sandbox file stamped just before its schema",
      { applicationId: APPLICATION_ID, userVersion: 0, tables: [] },
      { open: "ours" },
    ],
    [
      "a file of the version before the id",
      { applicationId: 0, userVersion: 1, tables: VERSION_1_TABLES },
      { open: "legacy" },
    ],
    [
      "a file of the version before the id, with SQLite's own statistics table",
      { applicationId: 0, userVersion: 1, tables: [...VERSION_1_TABLES, "sqlite_stat1"] },
      { open: "legacy" },
    ],
    [
      "a newer sandbox's file",
      { applicationId: APPLICATION_ID, userVersion: SCHEMA_VERSION + 1, tables: [] },
      { refuse: "newer-version", detail: String(SCHEMA_VERSION + 1) },
    ],
    [
      "the old sql.js format",
      { applicationId: 0, userVersion: 0, tables: ["records", "meta"] },
      { refuse: "older-format" },
    ],
    [
      "another application's id, whatever its tables",
      { applicationId: OTHER_ID, userVersion: 1, tables: VERSION_1_TABLES },
      { refuse: "other-application", detail: "application_id 0x12345678" },
    ],
    [
      "another application's file with user_version 1",
      { applicationId: 0, userVersion: 1, tables: ["invoices", "customer"] },
      { refuse: "other-application", detail: "no sandbox application_id, and tables that are not a sandbox's" },
    ],
    [
      "the sandbox's tables less one",
      { applicationId: 0, userVersion: 1, tables: VERSION_1_TABLES.slice(1) },
      { refuse: "other-application", detail: "no sandbox application_id, and tables that are not a sandbox's" },
    ],
    [
      "the sandbox's tables at user_version 0",
      { applicationId: 0, userVersion: 0, tables: VERSION_1_TABLES },
      { refuse: "other-application", detail: "no sandbox application_id, and tables that are not a sandbox's" },
    ],
    [
      "no tables but a user_version someone set",
      { applicationId: 0, userVersion: 5, tables: [] },
      { refuse: "other-application", detail: "no sandbox application_id, and tables that are not a sandbox's" },
    ],
    [
      "an id above 2^31, as SQLite reports it (signed)",
      { applicationId: -1, userVersion: 0, tables: [] },
      { refuse: "other-application", detail: "application_id 0xffffffff" },
    ],
  ];
  it.each(table)("%s", (_name, facts, verdict) => {
    expect(judgeFile(facts)).toEqual(verdict);
  });
});

describe("the application id and the tables of version 1", () => {
  it('is ASCII "EXKS"', () => {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(APPLICATION_ID);
    expect(bytes.toString("latin1")).toBe("EXKS");
  });

  it("lists exactly the tables of version 1: the schema's, less the organization table version 2 added", () => {
    expect(SCHEMA_VERSION).toBe(2);
    const db = new DatabaseSync(":memory:");
    db.exec(SCHEMA_SQL);
    expect([...readFacts(db).tables].sort()).toEqual([...VERSION_1_TABLES, "organization"].sort());
    db.close();
  });
});

describe("the application id in a database header", () => {
  const header = (id: number) => {
    const bytes = Buffer.alloc(100);
    bytes.write("SQLite format 3\0", 0, "latin1");
    bytes.writeUInt32BE(id, 68);
    return bytes;
  };
  it.each([
    ["the sandbox's id", header(APPLICATION_ID), APPLICATION_ID],
    ["no id", header(0), 0],
    ["another application's id", header(OTHER_ID), OTHER_ID],
    ["100 bytes of something else", Buffer.alloc(100, 0xa5), "not-sqlite"],
    ["a header cut short", header(APPLICATION_ID).subarray(0, 99), "not-sqlite"],
    ["text", Buffer.from("these are notes, not a database\n".repeat(4)), "not-sqlite"],
  ])("reads %s", (_name, bytes, expected) => {
    expect(headerApplicationId(bytes)).toBe(expected);
  });
});
