// The replica's cache of rarely written state: what it remembers, and when it reads again.
import { describe, expect, it } from "vitest";
import { ReadCache } from "../src/store/read-cache.js";

function counting(value: string | undefined) {
  const reads = { n: 0 };
  return { reads, load: () => (reads.n++, value) };
}

describe("ReadCache", () => {
  it("reads once and then answers from memory", () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("v1");
    expect([cache.read("organization", "a", load), cache.read("organization", "a", load)]).toEqual(["v1", "v1"]);
    expect(reads.n).toBe(1);
  });

  it("reads every time while not live (a PostgreSQL replica not hearing the others)", () => {
    const cache = new ReadCache(false);
    const { reads, load } = counting("v1");
    cache.read("organization", "a", load);
    cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });

  it("does not remember an unknown key", () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting(undefined);
    cache.read("organization", "nobody", load);
    cache.read("organization", "nobody", load);
    expect(reads.n).toBe(2);
  });

  it("reads again after another replica's change of that kind and key, and only that key", () => {
    const cache = new ReadCache(true);
    const a = counting("a");
    const b = counting("b");
    cache.read("sandbox_meta", "settings:a", a.load);
    cache.read("sandbox_meta", "settings:b", b.load);
    cache.changed("sandbox_meta", "settings:a");
    cache.read("sandbox_meta", "settings:a", a.load);
    cache.read("sandbox_meta", "settings:b", b.load);
    expect([a.reads.n, b.reads.n]).toEqual([2, 1]);
  });

  it("never remembers what an open transaction wrote, and reads it fresh once the transaction ends", () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("written");
    cache.read("fault_rule", "org", load);
    cache.writing("fault_rule", "org");
    cache.read("fault_rule", "org", load);
    cache.read("fault_rule", "org", load);
    expect(reads.n).toBe(3);
    cache.ended();
    cache.read("fault_rule", "org", load);
    cache.read("fault_rule", "org", load);
    expect(reads.n).toBe(4);
  });

  it("forgets everything when it starts hearing again (changes may have been missed)", () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("v");
    cache.read("organization", "a", load);
    cache.setLive(false);
    cache.setLive(true);
    cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });

  it("forgets everything when the database's generation moved since the last request, and nothing when it did not", () => {
    const cache = new ReadCache(true);
    const { reads, load } = counting("v");
    cache.validate("g1");
    cache.read("organization", "a", load);
    cache.validate("g1");
    cache.read("organization", "a", load);
    expect(reads.n).toBe(1);
    cache.validate("g2");
    cache.read("organization", "a", load);
    expect(reads.n).toBe(2);
  });
});
