// A `db` value that is a URL (scheme://) is refused before anything opens: today no engine takes one, and taken
// as a path, `postgres://…` made a directory named `postgres:` in the working directory.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox, DatabaseError } from "../src/index.js";
import { type DatabaseLocation, locateDatabase } from "../src/store/start-errors.js";
import { ORG_A } from "./helpers.js";

describe("what a db value names", () => {
  const table: Array<[db: string | undefined, location: DatabaseLocation]> = [
    [undefined, { engine: "memory" }],
    ["", { engine: "memory" }],
    [":memory:", { engine: "memory" }],
    ["./sandbox.db", { engine: "sqlite", path: "./sandbox.db" }],
    ["/var/data/sandbox.db", { engine: "sqlite", path: "/var/data/sandbox.db" }],
    ["C:\\data\\sandbox.db", { engine: "sqlite", path: "C:\\data\\sandbox.db" }],
    ["weird:name.db", { engine: "sqlite", path: "weird:name.db" }],
    ["data//x.db", { engine: "sqlite", path: "data//x.db" }],
    [
      "postgres://user:pass@db.example.com:5432/sandbox",
      { engine: "postgres", url: "postgres://user:pass@db.example.com:5432/sandbox" },
    ],
    ["postgresql://db.example.com/sandbox", { engine: "postgres", url: "postgresql://db.example.com/sandbox" }],
    ["PostgreS://u:p@h/db", { engine: "postgres", url: "PostgreS://u:p@h/db" }],
    ["mysql://u:p@ss/w@rd@h/db", { refuse: "unsupported-url", scheme: "mysql", shown: "mysql://h/db" }],
    ["file:///tmp/sandbox.db", { refuse: "unsupported-url", scheme: "file", shown: "file:///tmp/sandbox.db" }],
    ["sqlite://sandbox.db", { refuse: "unsupported-url", scheme: "sqlite", shown: "sqlite://sandbox.db" }],
    ["mysql+tcp://h/db", { refuse: "unsupported-url", scheme: "mysql+tcp", shown: "mysql+tcp://h/db" }],
  ];
  it.each(table)("%s is %j", (db, location) => {
    expect(locateDatabase(db)).toEqual(location);
  });
});

describe("createSandbox with a db URL", () => {
  it("rejects with a DatabaseError naming the scheme and what it takes, without the password, and creates nothing", async () => {
    const db = "mysql://exchange:s3cret-pw@127.0.0.1:3306/sandbox";
    const error = await createSandbox({ db, organizations: [ORG_A] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseError);
    expect(error).toMatchObject({ problem: "unsupported-url", file: "mysql://127.0.0.1:3306/sandbox" });
    const message = (error as DatabaseError).message;
    expect(message).toBe(
      "--db is a mysql:// URL, and the only database URL this sandbox takes is postgres://: give --db a PostgreSQL URL or a SQLite file path (e.g. ./sandbox.db), or leave it out to keep state in memory. Nothing was created.",
    );
    expect(message).not.toContain("s3cret-pw");
    expect(existsSync(resolve("mysql:"))).toBe(false);
  });

  it("keeps a password given in the query of a refused URL out of the error too", async () => {
    const db = "mysql://127.0.0.1:3306/sandbox?user=exchange&password=s3cret-pw&sslpassword=k3y";
    const error = (await createSandbox({ db, organizations: [ORG_A] }).catch((e: unknown) => e)) as DatabaseError;
    expect(error.file).toBe("mysql://127.0.0.1:3306/sandbox?user=exchange&password=***&sslpassword=***");
    expect(JSON.stringify([error.message, error.file])).not.toMatch(/s3cret-pw|k3y/);
  });
});
