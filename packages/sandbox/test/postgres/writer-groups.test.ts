// A replica's writers in line, grouped into shared transactions (writer-line.ts), against a real server: writers
// that wait in line share one transaction and still run one after the other; a writer its work refuses leaves
// nothing and its group commits; a statement that fails rolls the group back, and each writer runs again alone
// (the store's rerun, written out here as `inLine` does it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresDatabase } from "../../src/store/postgres/pg-database.js";
import { PostgresError } from "../../src/store/postgres/pg-errors.js";
import { GROUP_SIZE, isGroupAborted } from "../../src/store/postgres/writer-line.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let db: PostgresDatabase;

beforeAll(async () => {
  server = await startPostgres();
  db = new PostgresDatabase(await createDatabase(server.url, "writer_groups"), 5_000);
  await db.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}, 60_000);

afterAll(async () => {
  await db?.close();
  server?.stop();
});

const value = async (key: string) =>
  ((await db.prepare("SELECT value FROM kv WHERE key = ?").get(key)) as { value: string } | undefined)?.value;
const set = (key: string, to: string) =>
  db
    .prepare("INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .write(key, to);
const transactionId = async () =>
  String(((await db.prepare("SELECT txid_current() AS id").get()) as { id: number }).id);

/** A writer in the line; run again alone when its group was rolled back (as the store does). */
function inLine<R>(work: () => Promise<R>): Promise<R> {
  return db
    .transaction("read-committed", work, "grouped")
    .catch((error) =>
      isGroupAborted(error) ? db.transaction("read-committed", work, "alone") : Promise.reject(error),
    );
}

/** A writer that adds one to a counter (a read, then a write that depends on it); answers its transaction's id. */
function addOne(key: string): Promise<string> {
  return inLine(async () => {
    await set(key, String(Number((await value(key)) ?? "0") + 1));
    return await transactionId();
  });
}

describe("writers in line, grouped in shared transactions", () => {
  it("runs writers that wait in line in one transaction, each reading what the one before it wrote", async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => addOne("counter")));
    expect(await value("counter")).toBe("20");
    // The first 16 waited in line for the first one's transaction; the last 4 for the next one.
    expect(new Set(ids).size).toBe(Math.ceil(20 / GROUP_SIZE));
  });

  it("runs a writer alone in its own transaction when nobody waits beside it", async () => {
    const first = await addOne("alone");
    const second = await addOne("alone");
    expect(first).not.toBe(second);
    expect(await value("alone")).toBe("2");
  });

  it("rolls back a writer its work refuses, and commits the others of its group", async () => {
    // The first in line starts the group; the refused one joins it second.
    const first = addOne("beside-refused");
    const refused = inLine(async () => {
      await set("refused", "written before the refusal");
      await transactionId();
      throw new RangeError("refused by the work");
    });
    const others = Array.from({ length: 4 }, (_, i) =>
      inLine(async () => {
        await set(`kept-${i}`, "yes");
        return await transactionId();
      }),
    );
    const settled = await Promise.allSettled([first, refused, ...others]);
    expect(settled[1]).toEqual({ status: "rejected", reason: expect.any(RangeError) });
    const ids = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);
    expect(new Set(ids).size).toBe(1);
    expect(await value("refused")).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(await value(`kept-${i}`)).toBe("yes");
    expect(await value("beside-refused")).toBe("1");
  });

  it("rolls back a writer refused before it sent anything, and commits the others of its group", async () => {
    const first = addOne("beside-unsent");
    const refused = inLine(async () => {
      await set("refused-unsent", "held, never sent");
      throw new RangeError("refused at once");
    });
    const settled = await Promise.allSettled([first, refused, addOne("beside-unsent")]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await value("refused-unsent")).toBeUndefined();
    expect(await value("beside-unsent")).toBe("2");
  });

  it("runs each writer of a group whose statement failed again alone: the others commit, the failing one fails", async () => {
    const first = addOne("beside-failed");
    const failing = inLine(async () => {
      await set("failing", "never kept");
      await db.prepare("SELECT 1 / 0 AS never").get();
    });
    const settled = await Promise.allSettled([first, failing, addOne("beside-failed")]);
    expect(settled[1]).toEqual({ status: "rejected", reason: expect.objectContaining({ code: "22012" }) });
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(PostgresError);
    expect(settled[0]?.status).toBe("fulfilled");
    expect(settled[2]?.status).toBe("fulfilled");
    expect(await value("failing")).toBeUndefined();
    expect(await value("beside-failed")).toBe("2");
  });
});
