import { describe, expect, it } from "vitest";
import { createDeduplicator, createInbox, memoryInbox } from "../src/index.js";
import { type DedupKey, dedupKeyOf, legacyCutoff, legacyKeyFor } from "../src/dedup-key.js";

// The dedup key strategies and the legacy-key decision, as tables.

const event: DedupKey = {
  id: "3f2a9c1e-5b7d-4e8f-a1c2-0d9e8f7a6b5c",
  event: "VERIFIED",
  timestamp: "2026-03-01T09:30:05Z",
};

describe("dedupKeyOf", () => {
  it.each([
    ["the default", undefined, `${event.id}:VERIFIED:2026-03-01T09:30:05Z`],
    ['"id+event+timestamp"', "id+event+timestamp" as const, `${event.id}:VERIFIED:2026-03-01T09:30:05Z`],
    ['"id+event"', "id+event" as const, `${event.id}:VERIFIED`],
    ["a function", (e: DedupKey) => `customer/${e.id}/${e.timestamp}`, `customer/${event.id}/2026-03-01T09:30:05Z`],
  ])("keys %s as given", (_name, strategy, key) => {
    expect(dedupKeyOf(strategy)(event)).toBe(key);
  });

  it("keeps the timestamp's text as sent: two spellings are two keys", () => {
    const key = dedupKeyOf();
    expect(key({ ...event, timestamp: "2026-03-01T09:30:05.000Z" })).not.toBe(key(event));
  });

  it("refuses an event without a timestamp under the default key, saying what to pass", () => {
    expect(() => dedupKeyOf()({ id: event.id, event: "VERIFIED" } as DedupKey)).toThrow(
      /no timestamp: pass the whole event, or set dedupKey: "id\+event"/,
    );
  });

  it("refuses a strategy it does not know when the deduplicator or the inbox is created", () => {
    const bogus = "id+timestamp" as "id+event";
    expect(() => createDeduplicator({ dedupKey: bogus })).toThrow(TypeError);
    expect(() => createInbox({ store: memoryInbox(), handler: () => {}, dedupKey: bogus })).toThrow(
      'dedupKey must be "id+event+timestamp", "id+event" or a function, got id+timestamp',
    );
  });

  it.each([[""], [undefined], [42]])("refuses a key function's result %j", (result) => {
    expect(() => dedupKeyOf(() => result as string)(event)).toThrow("must return a non-empty string");
  });
});

describe("legacyKeyFor", () => {
  const cutoff = Date.parse("2026-03-03T00:00:00Z");
  it.each([
    ["no cutoff: never", event, `${event.id}:VERIFIED:${event.timestamp}`, undefined, undefined],
    ["a change before the cutoff: the id:event key", event, "new", cutoff, `${event.id}:VERIFIED`],
    ["a change at the cutoff: not checked", { ...event, timestamp: "2026-03-03T00:00:00Z" }, "new", cutoff, undefined],
    [
      "a change after the cutoff: not checked",
      { ...event, timestamp: "2026-03-05T16:20:12Z" },
      "new",
      cutoff,
      undefined,
    ],
    ["a timestamp that is not a date: not checked", { ...event, timestamp: "yesterday" }, "new", cutoff, undefined],
    [
      'under "id+event" the key is the legacy key: nothing more to check',
      event,
      `${event.id}:VERIFIED`,
      cutoff,
      undefined,
    ],
  ])("%s", (_case, given, key, at, expected) => {
    expect(legacyKeyFor(given, key, at)).toBe(expected);
  });

  it("takes legacyKeysBefore only as a valid Date", () => {
    expect(legacyCutoff(new Date(cutoff))).toBe(cutoff);
    expect(legacyCutoff(undefined)).toBeUndefined();
    expect(() => legacyCutoff(new Date("not a date"))).toThrow(TypeError);
    expect(() => createDeduplicator({ legacyKeysBefore: "2026-03-03" as unknown as Date })).toThrow(
      "legacyKeysBefore must be a valid Date",
    );
  });
});
