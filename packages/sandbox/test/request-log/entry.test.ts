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

  it("blanks a secret that straddles the cut whole, leaving no part of it", () => {
    const secret = "sk_live_0123456789abcdefXY";
    const body = `${"x".repeat(8192 - 12)}${secret}${"y".repeat(100)}`;
    const logged = capBody(body, 8192, [secret]);
    expect(logged.text).toBe(`${"x".repeat(8192 - 12)}${REDACTED}yy`);
    expect(logged.text).not.toContain(secret.slice(0, 4));
    expect(logged).toMatchObject({ bytes: Buffer.byteLength(body), truncated: true });
  });

  it("blanks a secret sent in its canonical JSON form", () => {
    const secret = 'pa"ss\\wörd';
    const canonical = JSON.stringify({ note: secret }).replace("ö", "\\u00f6");
    expect(canonical).toBe(String.raw`{"note":"pa\"ss\\w\u00f6rd"}`);
    expect(capBody(canonical, 8192, [secret]).text).toBe(`{"note":"${REDACTED}"}`);
  });
});
