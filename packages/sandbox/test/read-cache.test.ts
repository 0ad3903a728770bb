// The replica's cache of rarely written state: what it remembers, and when it reads again.
import { describe, expect, it } from "vitest";
import { ReadCache } from "../src/store/read-cache.js";

function counting(value: string | undefined) {
  const reads = { n: 0 };
  return { reads, load: async () => (reads.n++, value) };
}

describe("ReadCache", () => {
  it("reads once and then answers from memory", async () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("v1");
    expect([await cache.read("organization", "a", load), await cache.read("organization", "a", load)]).toEqual([
      "v1",
      "v1",
    ]);
    expect(reads.n).toBe(1);
  });

  it("reads every time while not live (a PostgreSQL replica not hearing the others)", async () => {
    const cache = new ReadCache(false);
    const { reads, load } = counting("v1");
    await cache.read("organization", "a", load);
    await cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });

  it("does not remember an unknown key", async () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting(undefined);
    await cache.read("organization", "nobody", load);
    await cache.read("organization", "nobody", load);
    expect(reads.n).toBe(2);
  });

  it("reads again after another replica's change of that kind and key, and only that key", async () => {
    const cache = new ReadCache(true);
    const a = counting("a");
    const b = counting("b");
    await cache.read("sandbox_meta", "settings:a", a.load);
    await cache.read("sandbox_meta", "settings:b", b.load);
    cache.changed("sandbox_meta", "settings:a");
    await cache.read("sandbox_meta", "settings:a", a.load);
    await cache.read("sandbox_meta", "settings:b", b.load);
    expect([a.reads.n, b.reads.n]).toEqual([2, 1]);
  });

  it("never remembers what an open transaction wrote, and reads it fresh once the transaction ends", async () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("written");
    const written = new Set<string>();
    await cache.read("fault_rule", "org", load);
    cache.writing("fault_rule", "org", written);
    await cache.read("fault_rule", "org", load, written);
    await cache.read("fault_rule", "org", load, written);
    expect(reads.n).toBe(3);
    cache.ended(written);
    await cache.read("fault_rule", "org", load);
    await cache.read("fault_rule", "org", load);
    expect(reads.n).toBe(4);
  });

  it("does not remember a value whose read a change overtook", async () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("old");
    const slow = await cache.read("organization", "a", async () => {
      cache.changed("organization", "a");
      return await load();
    });
    expect(await slow).toBe("old");
    await cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });

  it("forgets everything when it starts hearing again (changes may have been missed)", async () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("v");
    await cache.read("organization", "a", load);
    cache.setLive(false);
    cache.setLive(true);
    await cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });

  it("forgets everything when the database's generation moved since the last request, and nothing when it did not", async () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("v");
    cache.validate("g1");
    await cache.read("organization", "a", load);
    cache.validate("g1");
    await cache.read("organization", "a", load);
    expect(reads.n).toBe(1);
    cache.validate("g2");
    await cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });
});
