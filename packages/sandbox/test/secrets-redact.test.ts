// Every form of the API secret a logged field can carry, each found and blanked: the table is what a client can
// send (path, query, body as sent, canonical JSON, JSON carried in a JSON string).
import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "../src/secrets/redact.js";

const SECRET = 'sk_live_é"\\/ 7Z😀';

/** The secret as JSON writes it in a string: ", \ escaped; non-ASCII escaped in canonical form. */
const asJson = (text: string) => JSON.stringify(text).slice(1, -1);
const asCanonicalJson = (text: string) =>
  asJson(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

describe("redactSecrets", () => {
  it.each([
    ["as it is", SECRET],
    ["in a JSON string", asJson(SECRET)],
    ["in canonical JSON (non-ASCII as \\uXXXX)", asCanonicalJson(SECRET)],
    [
      "in canonical JSON with upper-case hex",
      asCanonicalJson(SECRET).replace(/\\u([0-9a-f]{4})/g, (_, h) => `\\u${h.toUpperCase()}`),
    ],
    ["in JSON carried in a JSON string", asJson(asCanonicalJson(SECRET))],
    ["percent-encoded", encodeURIComponent(SECRET)],
    ["percent-encoded in lower case", encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ["as a form value (+ for the space)", new URLSearchParams({ k: SECRET }).toString().slice(2)],
    ["with every character percent-encoded", [...Buffer.from(SECRET)].map((b) => `%${b.toString(16)}`).join("")],
  ])("blanks the secret %s", (_how, form) => {
    expect(redactSecrets(`before ${form} after`, [SECRET])).toBe(`before ${REDACTED} after`);
  });

  it("blanks every occurrence and leaves what is around them", () => {
    expect(redactSecrets("abc/abc?x=abc", ["abc"])).toBe(`${REDACTED}/${REDACTED}?x=${REDACTED}`);
  });

  it("leaves a text without the secret as it is, and ignores an empty secret", () => {
    expect(redactSecrets('{"a":"s3cre","b":"\\u0073"}', ["s3cret", ""])).toBe('{"a":"s3cre","b":"\\u0073"}');
  });

  it("leaves a long run of backslashes without the secret as it is", () => {
    const text = "\\".repeat(200_000);
    expect(redactSecrets(text, ['\\\\\\"x'])).toBe(text);
  });
});
