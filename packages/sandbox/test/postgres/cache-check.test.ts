// A request runs against the replica's cache and checks it once, inside its first transaction (cache-check.ts):
// against a real server, two stores on one database, the second one's cache used but deaf to the first's changes
// (no change feed), so only the check can find what it holds stale.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Store } from "../../src/store/store.js";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres-server.js";

let server: PostgresServer;
let writer: Store;
let reader: Store;
const KEY = "settings:org-1";

beforeAll(async () => {
  server = await startPostgres();
  const url = await createDatabase(server.url, "cache_check");
  writer = await Store.open({ path: url });
  reader = await Store.open({ path: url });
  reader.cache.setLive(true);
  await writer.transaction(async () => await writer.setMeta(KEY, "first"));
  await reader.freshenCache();
}, 60_000);

afterAll(async () => {
  await reader?.close();
  await writer?.close();
  server?.stop();
});

/** A GET that reads the setting (from the cache, when it holds it) inside a read-only transaction. */
const readSetting = () => reader.transaction(async () => await reader.getMeta(KEY), { onlyReads: true });

describe("a request run against the cache", () => {
  it("answers what it read when nothing changed since the cache was checked", async () => {
    await readSetting();
    expect(await reader.optimistically(readSetting)).toEqual({ stale: false, result: "first" });
  });

  it("is found stale when another replica changed cached state, though the cache still holds the old value", async () => {
    await readSetting();
    await writer.transaction(async () => await writer.setMeta(KEY, "second"));
    expect(await reader.optimistically(readSetting)).toEqual({ stale: true });
    expect(await reader.optimistically(readSetting)).toEqual({ stale: false, result: "second" });
  });

  it("commits nothing of a stale request's writes", async () => {
    await writer.transaction(async () => await writer.setMeta(KEY, "third"));
    const stale = await reader.optimistically(
      async () => await reader.transaction(async () => await reader.setMeta("written-by-stale", "x")),
    );
    expect(stale).toEqual({ stale: true });
    expect(await writer.getMeta("written-by-stale")).toBeUndefined();
  });

  it("checks a request that opened no transaction once, at its end", async () => {
    await writer.transaction(async () => await writer.setMeta(KEY, "fourth"));
    expect(await reader.optimistically(async () => "answered from memory")).toEqual({ stale: true });
    expect(await reader.optimistically(async () => "answered from memory")).toEqual({
      stale: false,
      result: "answered from memory",
    });
  });

  it("passes a request's own error through once the cache is known current", async () => {
    await expect(reader.optimistically(async () => Promise.reject(new RangeError("refused")))).rejects.toThrow(
      RangeError,
    );
  });
});
