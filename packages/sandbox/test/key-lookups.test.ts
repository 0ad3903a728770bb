// The two lookups by API key: authentication reads every time; the request log takes what it read.
import { describe, expect, it } from "vitest";
import { keyLookups } from "../src/organizations/key-lookups.js";

function counted(stored: Map<string, { secret: string }>) {
  let reads = 0;
  const lookups = keyLookups(async (apiKey) => {
    reads++;
    if (apiKey === "down") throw new Error("the database is down");
    return stored.get(apiKey);
  });
  return { lookups, reads: () => reads };
}

describe("the lookups by API key", () => {
  it("reads the database at every authentication, so a replaced secret counts at once", async () => {
    const stored = new Map([["k", { secret: "one" }]]);
    const { lookups, reads } = counted(stored);
    expect((await lookups.auth.get("k"))?.secret).toBe("one");
    stored.set("k", { secret: "two" });
    expect((await lookups.auth.get("k"))?.secret).toBe("two");
    expect(reads()).toBe(2);
  });

  it("gives the request log what authentication just read, without reading again", async () => {
    const { lookups, reads } = counted(new Map([["k", { secret: "one" }]]));
    const read = await lookups.auth.get("k");
    expect(await lookups.log.get("k")).toBe(read);
    expect(reads()).toBe(1);
  });

  it("reads for the log a key authentication has not seen, and finds nothing for an unknown one", async () => {
    const { lookups } = counted(new Map([["k", { secret: "one" }]]));
    expect((await lookups.log.get("k"))?.secret).toBe("one");
    expect(await lookups.log.get("unknown")).toBeUndefined();
  });

  it("logs nothing for a key it cannot look up now, where authentication fails loudly", async () => {
    const { lookups } = counted(new Map());
    expect(await lookups.log.get("down")).toBeUndefined();
    await expect(lookups.auth.get("down")).rejects.toThrow("the database is down");
  });
});
