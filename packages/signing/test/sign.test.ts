import { afterEach, describe, expect, it, vi } from "vitest";
import { computeSignatureSync, signRequestSync } from "../src/node.js";
import { credentials, entries } from "./entries.js";
import table from "./vectors.json" with { type: "json" };

const timestamp = table.timestamp;
const emptyBodySignature = table.vectors.find((v) => v.method === "GET")!.signature;

describe.each(entries)("signRequest, %s", (_name, lib) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends the canonical body with Content-Type and the three signature headers", async () => {
    const r = await lib.signRequest({ ...credentials, timestamp, body: { b: 1, a: "é" } });
    expect(r.body).toBe('{"a":"\\u00e9","b":1}');
    expect(r.headers).toEqual({
      "X-API-KEY": "ek_test_key",
      "X-TIMESTAMP": "1700000000",
      "X-SIGNATURE": await lib.computeSignature({ ...credentials, timestamp, canonicalBody: r.body }),
      "Content-Type": "application/json",
    });
  });

  it("signs {} for a request without a body, and sends neither body nor Content-Type", async () => {
    const r = await lib.signRequest({ ...credentials, timestamp });
    expect(r.body).toBeUndefined();
    expect(r.headers).toEqual({
      "X-API-KEY": "ek_test_key",
      "X-TIMESTAMP": "1700000000",
      "X-SIGNATURE": emptyBodySignature,
    });
  });

  it("uses the current Unix time in seconds when no timestamp is given", async () => {
    vi.useFakeTimers({ now: 1_700_000_123_456 });
    const r = await lib.signRequest({ ...credentials });
    expect(r.headers["X-TIMESTAMP"]).toBe("1700000123");
  });

  it("gives the same signature for a timestamp passed as a number or as a string", async () => {
    const a = await lib.signRequest({ ...credentials, timestamp: 1700000000 });
    const b = await lib.signRequest({ ...credentials, timestamp: "1700000000" });
    expect(a.headers["X-SIGNATURE"]).toBe(b.headers["X-SIGNATURE"]);
  });

  it.each([
    ["milliseconds", 1_700_000_000_000],
    ["a fraction", 1700000000.5],
    ["a negative number", -1],
    ["text that is not digits", "2023-11-14"],
  ])("rejects a timestamp in %s with a TypeError", async (_what, bad) => {
    await expect(lib.signRequest({ ...credentials, timestamp: bad })).rejects.toThrow(TypeError);
  });

  it("rejects a body given as JSON text, which would otherwise be signed as a JSON string", async () => {
    await expect(lib.signRequest({ ...credentials, body: '{"a":1}' })).rejects.toThrow(/not JSON text/);
  });

  it("rejects a body JSON cannot carry with the TypeError that names the path", async () => {
    await expect(lib.signRequest({ ...credentials, body: { fees: { pg_fee: NaN } } })).rejects.toThrow(
      "Cannot canonicalize $.fees.pg_fee",
    );
  });

  it.each([
    ["an empty apiKey", { apiKey: "" }],
    ["an empty apiSecret", { apiSecret: "" }],
    ["a missing apiSecret", { apiSecret: undefined }],
  ])("rejects %s with a TypeError", async (_what, patch) => {
    await expect(lib.signRequest({ ...credentials, ...patch } as typeof credentials)).rejects.toThrow(TypeError);
  });

  it("signs null as a body, since null is a JSON value", async () => {
    const r = await lib.signRequest({ ...credentials, timestamp, body: null });
    expect(r.body).toBe("null");
  });
});

describe.each(entries)("computeSignature, %s", (_name, lib) => {
  it("signs apiKey|timestamp|canonicalBody with the secret, as Base64 of the raw digest", async () => {
    // python3 -c "import hmac,hashlib,base64; print(base64.b64encode(hmac.new(b'ek_test_secret', b'ek_test_key|1700000000|{}', hashlib.sha256).digest()).decode())"
    expect(await lib.computeSignature({ ...credentials, timestamp, canonicalBody: "{}" })).toBe(emptyBodySignature);
  });

  it("rejects a canonicalBody that is neither a string nor bytes", async () => {
    await expect(lib.computeSignature({ ...credentials, timestamp, canonicalBody: {} as string })).rejects.toThrow(
      TypeError,
    );
  });

  it("signs a body given as UTF-8 bytes exactly as the same text", async () => {
    const text = '{"name":"\\u0905","note":"é 😀"}'; // non-ASCII too: the bytes are hashed as given, not re-encoded
    const bytes = new TextEncoder().encode(text);
    expect(await lib.computeSignature({ ...credentials, timestamp, canonicalBody: bytes })).toBe(
      await lib.computeSignature({ ...credentials, timestamp, canonicalBody: text }),
    );
    expect(
      await lib.computeSignature({ ...credentials, timestamp, canonicalBody: new TextEncoder().encode("{}") }),
    ).toBe(emptyBodySignature);
  });

  it("verifies a signature over a body given as bytes", async () => {
    const bytes = new TextEncoder().encode('{"a":1}');
    const signature = await lib.computeSignature({ ...credentials, timestamp, canonicalBody: '{"a":1}' });
    expect(
      await lib.verifySignature({ ...credentials, timestamp, canonicalBody: bytes, signature, now: timestamp }),
    ).toBe(true);
    const other = new TextEncoder().encode('{"a":2}');
    expect(
      await lib.verifySignature({ ...credentials, timestamp, canonicalBody: other, signature, now: timestamp }),
    ).toBe(false);
  });
});

describe("the synchronous Node variants", () => {
  it("signRequestSync returns what signRequest resolves to", async () => {
    const { signRequest } = await import("../src/node.js");
    const options = { ...credentials, timestamp, body: { amount: "10.00", name: "अनिल" } };
    expect(signRequestSync(options)).toEqual(await signRequest(options));
  });

  it("computeSignatureSync returns the signature without a promise", () => {
    expect(computeSignatureSync({ ...credentials, timestamp, canonicalBody: "{}" })).toBe(emptyBodySignature);
  });

  it("signRequestSync throws synchronously on a bad body", () => {
    expect(() => signRequestSync({ ...credentials, body: { a: [undefined] } })).toThrow("Cannot canonicalize $.a[0]");
  });
});
