// Writers that read before their turn, together (optimistic-group.ts), against a real server: writers that start
// together share one transaction; each read is checked under the writers' lock before its writer's writes, so a
// writer whose read another changed runs again (in line) and nothing is lost; a writer that reads its own write,
// or one its work refuses, or a failed statement, each end as they would alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Store } from "../../src/store/store.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let store: Store;
/** Another replica on the same database. */
let other: Store;

beforeAll(async () => {
  server = await startPostgres();
  const url = await createDatabase(server.url, "optimistic_groups");
  store = await Store.open({ path: url });
  other = await Store.open({ path: url });
}, 60_000);

afterAll(async () => {
  await other?.close();
  await store?.close();
  server?.stop();
});

/** The id of the database transaction the calling writer runs in. */
async function transactionId(): Promise<string> {
  return String(((await store.statement("SELECT txid_current() AS id").get()) as { id: number }).id);
}

/** A writer that adds one to a counter kept in the meta table (a read, then a write that depends on it). */
function addOne(key: string): Promise<void> {
  return store.transaction(async () => {
    await store.setMeta(key, String(Number((await store.getMeta(key)) ?? "0") + 1));
  });
}

describe("writers that read before their turn", () => {
  it("run in one transaction when they start together and read apart", async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.transaction(async () => {
          const id = await transactionId();
          if ((await store.getMeta(`apart-${i}`)) === undefined) await store.setMeta(`apart-${i}`, "set");
          return id;
        }),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    for (let i = 0; i < 10; i++) expect(await store.getMeta(`apart-${i}`)).toBe("set");
  });

  it("keep every increment when writers of one group read what another of them writes", async () => {
    await Promise.all(Array.from({ length: 20 }, () => addOne("counter")));
    expect(await store.getMeta("counter")).toBe("20");
  });

  it("run again, on what is committed, a writer whose read another replica changed before its turn", async () => {
    await store.transaction(async () => await store.setMeta("raced", "0"));
    let readIt!: () => void;
    const read = new Promise<void>((resolve) => (readIt = resolve));
    let goOn!: () => void;
    const gate = new Promise<void>((resolve) => (goOn = resolve));
    let runs = 0;
    const writer = store.transaction(async () => {
      runs++;
      const seen = Number(await store.getMeta("raced"));
      if (runs === 1) {
        readIt();
        await gate;
      }
      await store.setMeta("raced", String(seen + 1));
    });
    await read;
    await other.transaction(async () => await other.setMeta("raced", "5"));
    goOn();
    await writer;
    expect(runs).toBe(2);
    expect(await store.getMeta("raced")).toBe("6");
  });

  it("run a writer that reads its own write again in the line, where it reads it", async () => {
    const seen = await store.transaction(async () => {
      await store.setMeta("own", "mine");
      return await store.statement("SELECT value FROM sandbox_meta WHERE key = ?").get("own");
    });
    expect(seen).toEqual({ value: "mine" });
    expect(await store.getMeta("own")).toBe("mine");
  });

  it("run a writer again in the line when its work caught the refusal to run a write before its turn", async () => {
    let runs = 0;
    const answer = await store.transaction(async () => {
      runs++;
      try {
        await store.statement("INSERT INTO sandbox_meta (key, value) VALUES ('caught', 'written')").run();
      } catch {
        return "gave up";
      }
      return "wrote";
    });
    expect({ answer, runs }).toEqual({ answer: "wrote", runs: 2 });
    expect(await store.getMeta("caught")).toBe("written");
  });

  it("commit the others when one writer's work refuses, and keep nothing of it", async () => {
    const refused = store.transaction(async () => {
      await store.getMeta("refused");
      await store.setMeta("refused", "written before the refusal");
      throw new RangeError("refused by the work");
    });
    const others = Array.from({ length: 4 }, (_, i) =>
      store.transaction(async () => {
        const id = await transactionId();
        await store.setMeta(`kept-${i}`, "yes");
        return id;
      }),
    );
    const settled = await Promise.allSettled([refused, ...others]);
    expect(settled[0]).toEqual({ status: "rejected", reason: expect.any(RangeError) });
    const ids = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);
    expect(new Set(ids).size).toBe(1);
    expect(await store.getMeta("refused")).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(await store.getMeta(`kept-${i}`)).toBe("yes");
  });

  it("run each writer again alone when a read of the group fails: the others commit, the failing one fails", async () => {
    const failing = store.transaction(async () => {
      await store.statement("SELECT 1 / 0 AS never").get();
      await store.setMeta("failing", "never kept");
    });
    const settled = await Promise.allSettled([addOne("beside-failed"), failing, addOne("beside-failed")]);
    expect(settled[1]).toEqual({ status: "rejected", reason: expect.objectContaining({ code: "22012" }) });
    expect(settled[0]?.status).toBe("fulfilled");
    expect(settled[2]?.status).toBe("fulfilled");
    expect(await store.getMeta("failing")).toBeUndefined();
    expect(await store.getMeta("beside-failed")).toBe("2");
  });
});
