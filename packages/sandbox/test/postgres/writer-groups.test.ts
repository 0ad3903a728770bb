// A replica's writers grouped into shared transactions (writer-line.ts), against a real server: writers that wait
// in line share one transaction and still run one after the other; a writer its work refuses leaves nothing and
// its group commits; a statement that fails sends every writer of its group to run again alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresError } from "../../src/store/postgres/pg-errors.js";
import { GROUP_SIZE } from "../../src/store/postgres/writer-line.js";
import { Store } from "../../src/store/store.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let store: Store;

beforeAll(async () => {
  server = await startPostgres();
  store = await Store.open({ path: await createDatabase(server.url, "writer_groups") });
}, 60_000);

afterAll(async () => {
  await store?.close();
  server?.stop();
});

/** The id of the database transaction the calling writer runs in. */
async function transactionId(): Promise<string> {
  return String(((await store.statement("SELECT txid_current() AS id").get()) as { id: number }).id);
}

/** A writer that adds one to a counter kept in the meta table (a read, then a write that depends on it). */
function addOne(key: string): Promise<string> {
  return store.transaction(async () => {
    const n = Number((await store.getMeta(key)) ?? "0");
    await store.setMeta(key, String(n + 1));
    return await transactionId();
  });
}

describe("writers grouped in shared transactions", () => {
  it("runs writers that wait in line in one transaction, each reading what the one before it wrote", async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => addOne("counter")));
    expect(await store.getMeta("counter")).toBe("20");
    // The first 16 waited in line for the first one's transaction; the last 4 for the next one.
    expect(new Set(ids).size).toBe(Math.ceil(20 / GROUP_SIZE));
  });

  it("runs a writer alone in its own transaction when nobody waits beside it", async () => {
    const first = await addOne("alone");
    const second = await addOne("alone");
    expect(first).not.toBe(second);
    expect(await store.getMeta("alone")).toBe("2");
  });

  it("rolls back a writer its work refuses, and commits the others of its group", async () => {
    // The first in line starts the group; the refused one joins it second.
    const first = addOne("beside-refused");
    const refused = store.transaction(async () => {
      await store.setMeta("refused", "written before the refusal");
      await transactionId();
      throw new RangeError("refused by the work");
    });
    const others = Array.from({ length: 4 }, (_, i) =>
      store.transaction(async () => {
        await store.setMeta(`kept-${i}`, "yes");
        return await transactionId();
      }),
    );
    const settled = await Promise.allSettled([first, refused, ...others]);
    expect(settled[1]).toEqual({ status: "rejected", reason: expect.any(RangeError) });
    const ids = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);
    expect(new Set(ids).size).toBe(1);
    expect(await store.getMeta("refused")).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(await store.getMeta(`kept-${i}`)).toBe("yes");
    expect(await store.getMeta("beside-refused")).toBe("1");
  });

  it("rolls back a writer refused before it sent anything, and commits the others of its group", async () => {
    const first = addOne("beside-unsent");
    const refused = store.transaction(async () => {
      await store.setMeta("refused-unsent", "held, never sent");
      throw new RangeError("refused at once");
    });
    const settled = await Promise.allSettled([first, refused, addOne("beside-unsent")]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await store.getMeta("refused-unsent")).toBeUndefined();
    expect(await store.getMeta("beside-unsent")).toBe("2");
  });

  it("runs each writer of a group whose statement failed again alone: the others commit, the failing one fails", async () => {
    const first = addOne("beside-failed");
    const failing = store.transaction(async () => {
      await store.setMeta("failing", "never kept");
      await store.statement("SELECT 1 / 0 AS never").get();
    });
    const settled = await Promise.allSettled([first, failing, addOne("beside-failed")]);
    expect(settled[1]).toEqual({
      status: "rejected",
      reason: expect.objectContaining({ code: "22012" }),
    });
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(PostgresError);
    expect(settled[0]?.status).toBe("fulfilled");
    expect(settled[2]?.status).toBe("fulfilled");
    expect(await store.getMeta("failing")).toBeUndefined();
    expect(await store.getMeta("beside-failed")).toBe("2");
  });
});
