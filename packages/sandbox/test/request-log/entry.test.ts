// A logged body: capped in bytes, the organization's secret blanked.
import { describe, expect, it } from "vitest";
import { capBody, REDACTED } from "../../src/request-log/entry.js";

describe("capBody", () => {
  it("keeps a body under the cap whole", () => {
    expect(capBody(Buffer.from('{"a":1}'), 100, [])).toEqual({ text: '{"a":1}', bytes: 7, truncated: false });
  });

  it("keeps the first bytes of a body over the cap and says it was cut", () => {
    const logged = capBody(Buffer.alloc(1_000_000, "x"), 8192, []);
    expect(logged).toEqual({ text: "x".repeat(8192), bytes: 1_000_000, truncated: true });
  });

  it("turns a character cut in two by the cap into U+FFFD instead of failing", () => {
    expect(capBody(Buffer.from("aé"), 2, []).text).toBe("a\ufffd");
  });

  it("blanks every occurrence of a secret", () => {
    expect(capBody('{"a":"s3cret","b":"xs3cretx"}', 100, ["s3cret"]).text).toBe(
      `{"a":"${REDACTED}","b":"x${REDACTED}x"}`,
    );
  });
});
