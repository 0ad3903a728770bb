// Writes whose answer nobody waits for travel with the transaction's next statement or its COMMIT (pg-batch.ts),
// written into the text as literals: against a real server, what is stored is what was written, byte for byte,
// and a held write that fails takes its whole transaction with it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresDatabase } from "../../src/store/postgres/pg-database.js";
import { PostgresError } from "../../src/store/postgres/pg-errors.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let db: PostgresDatabase;
let url: string;

beforeAll(async () => {
  server = await startPostgres();
  url = await createDatabase(server.url, "held_writes");
  db = new PostgresDatabase(url, 5_000);
  await db.exec("CREATE TABLE note (id TEXT PRIMARY KEY, body TEXT NOT NULL, n INTEGER)");
}, 60_000);

afterAll(async () => {
  await db?.close();
  server?.stop();
});

const insert = () => db.prepare("INSERT INTO note (id, body, n) VALUES (?, ?, ?)");
const body = async (id: string) =>
  ((await db.prepare("SELECT body FROM note WHERE id = ?").get(id)) as { body: string } | undefined)?.body;

describe("writes held for the next statement", () => {
  it.each([
    ["quotes", `it's "quoted" ''twice''`],
    ["backslashes", String.raw`C:\path\n\\ and \' too`],
    ["a JSON document", JSON.stringify({ amount: "1000.000000000000000001", name: "Zoë \u202e", note: "a\nb\tc" })],
    ["characters outside the BMP", "🦊💸 𝄞"],
    ["what looks like a placeholder", "$1 and $2 and ?"],
    ["an SQL comment and a statement", "x'); DROP TABLE note; --"],
  ])("stores %s byte for byte", async (what, text) => {
    await db.transaction("read-committed", async () => await insert().write(what, text, 1), "alone");
    expect(await body(what)).toBe(text);
  });

  it("are read back by the same transaction's next read", async () => {
    const seen = await db.transaction(
      "read-committed",
      async () => {
        await insert().write("read-own", "mine", 2);
        return await body("read-own");
      },
      "alone",
    );
    expect(seen).toBe("mine");
  });

  it("take the whole transaction with them when one fails at COMMIT", async () => {
    const failed = db.transaction(
      "read-committed",
      async () => {
        await insert().write("kept-not", "first", 3);
        await insert().write("kept-not", "the same key again", 4);
      },
      "alone",
    );
    await expect(failed).rejects.toBeInstanceOf(PostgresError);
    expect(await body("kept-not")).toBeUndefined();
  });

  it("let a read asked ahead see the writes held before it", async () => {
    const seen = await db.transaction(
      "read-committed",
      async () => {
        await insert().write("ahead", "before the read", 6);
        const rows = db.prepare("SELECT body FROM note WHERE id = ?").ahead("ahead");
        await body("alone-not-there");
        return await rows();
      },
      "alone",
    );
    expect(seen).toEqual([{ body: "before the read" }]);
  });

  it("send a read asked ahead when its rows are wanted before any other statement", async () => {
    const seen = await db.transaction(
      "read-committed",
      async () => await db.prepare("SELECT body FROM note WHERE id = ?").ahead("ahead")(),
      "alone",
    );
    expect(seen).toEqual([{ body: "before the read" }]);
  });

  it("run at once outside a transaction", async () => {
    await insert().write("alone", "at once", 5);
    expect(await body("alone")).toBe("at once");
  });
});

describe("a read-only transaction's COMMIT, sent with the connection's next message", () => {
  /** A database of one connection, so each transaction reuses the last one's. */
  const single = () => new PostgresDatabase(url, 5_000, 1);
  const read = (on: PostgresDatabase, id: string) =>
    on.transaction(
      "read-only",
      async () => (await on.prepare("SELECT body FROM note WHERE id = ?").get(id)) as { body: string },
    );

  async function change(id: string, text: string): Promise<void> {
    const other = new pg.Client(url);
    await other.connect();
    await other.query("UPDATE note SET body = $1 WHERE id = $2", [text, id]);
    await other.end();
  }

  it("ends the read before the next transaction on the connection begins (which sees what was committed since)", async () => {
    const on = single();
    try {
      await insert().write("snapshot", "first", 7);
      expect((await read(on, "snapshot")).body).toBe("first");
      await change("snapshot", "second");
      expect((await read(on, "snapshot")).body).toBe("second");
    } finally {
      await on.close();
    }
  });

  it("ends the read before a statement outside any transaction on the connection", async () => {
    const on = single();
    try {
      await insert().write("outside", "first", 8);
      expect((await read(on, "outside")).body).toBe("first");
      await change("outside", "second");
      expect(((await on.prepare("SELECT body FROM note WHERE id = ?").get("outside")) as { body: string }).body).toBe(
        "second",
      );
    } finally {
      await on.close();
    }
  });

  it("lets a writer on the connection commit what it writes after the read", async () => {
    const on = single();
    try {
      await read(on, "outside");
      await on.transaction(
        "read-committed",
        async () => await on.prepare("INSERT INTO note (id, body, n) VALUES (?, ?, ?)").write("after-read", "kept", 9),
        "alone",
      );
      expect(await body("after-read")).toBe("kept");
    } finally {
      await on.close();
    }
  });
});
