import { canonicalize } from "@exchange-kit/signing";
import { describe, expect, it } from "vitest";
import {
  signTestWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "../src/index.js";
import { apiKey, apiSecret, now, payoutInReview, signText } from "./support/fixtures.js";

const body = canonicalize(payoutInReview);

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => expect.unreachable("the delivery was accepted"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

async function expectCode(promise: Promise<unknown>, code: WebhookVerificationErrorCode, message?: RegExp) {
  const error = await rejection(promise);
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
  return error;
}

describe("verifyWebhook accepts", () => {
  it("a delivery signed by the service and returns its event, marked known", async () => {
    const headers = await signText(body);
    const event = await verifyWebhook({ body, headers, apiKey, apiSecret, now });
    expect(event).toEqual({ ...payoutInReview, known: true });
  });

  it("the body as a string, a Uint8Array, a Buffer or an ArrayBuffer", async () => {
    const headers = await signText(body);
    const bytes = new TextEncoder().encode(body);
    for (const raw of [body, bytes, Buffer.from(body), bytes.buffer]) {
      await expect(verifyWebhook({ body: raw, headers, apiKey, apiSecret, now })).resolves.toMatchObject({
        known: true,
      });
    }
  });

  it("headers as Headers, as Node's IncomingHttpHeaders, or as a plain object in any case", async () => {
    const signed = await signText(body);
    const variants = [
      new Headers(signed),
      { "x-timestamp": signed["x-timestamp"], "x-signature": [signed["x-signature"]!] },
      { "X-TIMESTAMP": signed["x-timestamp"], "X-Signature": signed["x-signature"] },
    ];
    for (const headers of variants) {
      await expect(verifyWebhook({ body, headers, apiKey, apiSecret, now })).resolves.toMatchObject({ known: true });
    }
  });

  it("a timestamp exactly at the tolerance, in either direction", async () => {
    for (const timestamp of [now - 300, now + 300]) {
      const headers = await signText(body, { timestamp });
      await expect(verifyWebhook({ body, headers, apiKey, apiSecret, now })).resolves.toBeDefined();
    }
  });

  it("a body a proxy pretty-printed, via its canonical form", async () => {
    const pretty = JSON.stringify(payoutInReview, null, 2);
    const headers = await signText(body);
    await expect(verifyWebhook({ body: pretty, headers, apiKey, apiSecret, now })).resolves.toMatchObject({
      known: true,
    });
  });

  it("a re-serialized body with big integers and 1.0, which only a lossless canonical form matches", async () => {
    const signedText =
      '{"event":"ON_HOLD","id":"5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a","metadata":{"amount":12345678901234567890,"rate":1.0},"timestamp":"2026-03-01T10:21:04Z","type":"PAYIN"}';
    const reserialized = signedText.replace(/,/g, ", ").replace(/":/g, '": ');
    const headers = await signText(signedText);
    const event = await verifyWebhook({ body: reserialized, headers, apiKey, apiSecret, now });
    expect(event).toMatchObject({ type: "PAYIN", event: "ON_HOLD", known: true });
  });

  it("a body whose escaped non-ASCII text a proxy decoded into UTF-8", async () => {
    const event = { ...payoutInReview, metadata: { ...payoutInReview.metadata, note: "Zürich – ✓ 😀" } };
    const escaped = canonicalize(event); // what the service sends: \u escapes
    expect(escaped).toContain("\\u00fc");
    const decoded = new TextEncoder().encode(JSON.stringify(event));
    const headers = await signText(escaped);
    await expect(verifyWebhook({ body: decoded, headers, apiKey, apiSecret, now })).resolves.toMatchObject({
      metadata: { note: "Zürich – ✓ 😀" },
    });
  });

  it("a delivery signed with any of several credentials during a key rotation", async () => {
    const credentials = [
      { apiKey: "ak_old", apiSecret: "sk_old" },
      { apiKey, apiSecret },
    ];
    for (const { apiKey: key, apiSecret: secret } of credentials) {
      const headers = await signText(body, { key, secret });
      await expect(verifyWebhook({ body, headers, credentials, now })).resolves.toMatchObject({ known: true });
    }
  });

  it("deliveries made by signTestWebhook, with known and unknownReason left out of the body", async () => {
    const verified = { ...payoutInReview, known: true };
    const { body: sent, headers } = await signTestWebhook({ event: verified, apiKey, apiSecret, timestamp: now });
    expect(sent).toBe(body);
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "X-TIMESTAMP": String(now),
      "X-SIGNATURE": expect.any(String),
    });
    await expect(verifyWebhook({ body: sent, headers, apiKey, apiSecret, now })).resolves.toEqual(verified);
  });

  it("JSON text signed by signTestWebhook over its canonical form and sent as given", async () => {
    const pretty = JSON.stringify(payoutInReview, null, 2);
    const { body: sent, headers } = await signTestWebhook({ event: pretty, apiKey, apiSecret, timestamp: now });
    expect(sent).toBe(pretty);
    await expect(verifyWebhook({ body: sent, headers, apiKey, apiSecret, now })).resolves.toMatchObject({
      known: true,
    });
  });

  it("signTestWebhook deliveries against the real clock by default", async () => {
    const { body: sent, headers } = await signTestWebhook({ event: payoutInReview, apiKey, apiSecret });
    await expect(verifyWebhook({ body: sent, headers, apiKey, apiSecret })).resolves.toMatchObject({ known: true });
  });
});

describe("verifyWebhook rejects", () => {
  it("a delivery without X-SIGNATURE (MISSING_HEADER), naming the header", async () => {
    const { "x-signature": _, ...headers } = await signText(body);
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "MISSING_HEADER",
      /no X-SIGNATURE header: not a signed delivery, or a proxy dropped it/,
    );
  });

  it("a request with neither header (MISSING_HEADER)", async () => {
    await expectCode(
      verifyWebhook({ body, headers: {}, apiKey, apiSecret, now }),
      "MISSING_HEADER",
      /no X-TIMESTAMP header/,
    );
  });

  it("a timestamp that is not Unix seconds (INVALID_TIMESTAMP), showing the value", async () => {
    const signed = await signText(body);
    for (const timestamp of ["2026-03-01T10:00:00Z", "1772359200.5", "", "-1772359200"]) {
      const headers = { ...signed, "x-timestamp": timestamp };
      await expectCode(
        verifyWebhook({ body, headers, apiKey, apiSecret, now }),
        "INVALID_TIMESTAMP",
        new RegExp(`must be Unix seconds, got "${timestamp.replace(".", "\\.")}"`),
      );
    }
  });

  it("a timestamp with leading zeros, a sign or an exponent (INVALID_TIMESTAMP), not a TypeError", async () => {
    const signed = await signText(body);
    for (const timestamp of [`000${now}`, `+${now}`, `${now}e0`, ` ${now}`]) {
      const headers = { ...signed, "x-timestamp": timestamp };
      await expectCode(verifyWebhook({ body, headers, apiKey, apiSecret, now }), "INVALID_TIMESTAMP");
    }
  });

  it("a stale delivery (TIMESTAMP_OUT_OF_TOLERANCE), saying it is in the past and by how much", async () => {
    const headers = await signText(body, { timestamp: now - 301 });
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "TIMESTAMP_OUT_OF_TOLERANCE",
      /301 s in the past \(tolerance 300 s\): a delayed or replayed delivery, or this clock is ahead/,
    );
  });

  it("a delivery from the future (TIMESTAMP_OUT_OF_TOLERANCE), saying this clock is behind", async () => {
    const headers = await signText(body, { timestamp: now + 412 });
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "TIMESTAMP_OUT_OF_TOLERANCE",
      /412 s in the future \(tolerance 300 s\): this clock is behind/,
    );
  });

  it("a timestamp in milliseconds, saying so", async () => {
    const headers = { ...(await signText(body)), "x-timestamp": String(now * 1000) };
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "TIMESTAMP_OUT_OF_TOLERANCE",
      /milliseconds/,
    );
  });

  it("deliveries outside a custom toleranceSeconds", async () => {
    const headers = await signText(body, { timestamp: now - 61 });
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now, toleranceSeconds: 60 }),
      "TIMESTAMP_OUT_OF_TOLERANCE",
    );
  });

  it("a tampered body (INVALID_SIGNATURE)", async () => {
    const headers = await signText(body);
    const tampered = body.replace("payout-000789", "payout-000790");
    await expectCode(
      verifyWebhook({ body: tampered, headers, apiKey, apiSecret, now }),
      "INVALID_SIGNATURE",
      /does not match/,
    );
  });

  it("a delivery signed with another secret (INVALID_SIGNATURE), pointing at the credentials", async () => {
    const headers = await signText(body, { secret: "sk_other" });
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "INVALID_SIGNATURE",
      /Check apiKey and apiSecret: the service signs with yours, of this environment/,
    );
  });

  it("a delivery signed with none of the rotation's credentials, saying how many were tried", async () => {
    const headers = await signText(body, { secret: "sk_other" });
    const credentials = [
      { apiKey, apiSecret },
      { apiKey: "ak_new", apiSecret: "sk_new" },
    ];
    await expectCode(
      verifyWebhook({ body, headers, credentials, now }),
      "INVALID_SIGNATURE",
      /Check the 2 credentials/,
    );
  });

  it("a pretty-printed body that matches in no form, mentioning re-serialization", async () => {
    const pretty = JSON.stringify({ ...payoutInReview, id: "00000000-0000-4000-8000-000000000000" }, null, 2);
    const headers = await signText(body);
    await expectCode(
      verifyWebhook({ body: pretty, headers, apiKey, apiSecret, now }),
      "INVALID_SIGNATURE",
      /re-serialized/,
    );
  });

  it("a hex signature, saying X-SIGNATURE must be Base64", async () => {
    const headers = { ...(await signText(body)), "x-signature": "a3".repeat(32) };
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "INVALID_SIGNATURE",
      /X-SIGNATURE must be Base64 \(44 characters\), not hex/,
    );
  });

  it("a Base64url signature, saying it must be standard Base64", async () => {
    const signed = await signText(body);
    const urlSafe = signed["x-signature"]!.replace(/\+/g, "-").replace(/\//g, "_").replace(/=$/, "");
    const headers = {
      ...signed,
      "x-signature": urlSafe.includes("-") || urlSafe.includes("_") ? urlSafe : `${urlSafe.slice(0, -1)}_`,
    };
    await expectCode(
      verifyWebhook({ body, headers, apiKey, apiSecret, now }),
      "INVALID_SIGNATURE",
      /must be Base64 \(44 characters\), not Base64url/,
    );
  });

  it("a parsed body (MALFORMED_BODY), saying it was parsed before verification", async () => {
    const headers = await signText(body);
    await expectCode(
      verifyWebhook({ body: payoutInReview as never, headers, apiKey, apiSecret, now }),
      "MALFORMED_BODY",
      /the body was parsed before verification: pass the raw body/,
    );
  });

  it("a missing body (MALFORMED_BODY)", async () => {
    const headers = await signText(body);
    await expectCode(
      verifyWebhook({ body: undefined as never, headers, apiKey, apiSecret, now }),
      "MALFORMED_BODY",
      /no body/,
    );
  });

  it("a body that is not valid UTF-8 (MALFORMED_BODY)", async () => {
    const headers = await signText(body);
    const bytes = new Uint8Array([...new TextEncoder().encode(body.slice(0, -2)), 0xc3, 0x28, 0x7d]);
    await expectCode(
      verifyWebhook({ body: bytes, headers, apiKey, apiSecret, now }),
      "MALFORMED_BODY",
      /not valid UTF-8/,
    );
  });

  it("a signed body that is not JSON (MALFORMED_BODY)", async () => {
    const text = "type=PAYOUT";
    const { computeSignature } = await import("@exchange-kit/signing");
    const signature = await computeSignature({ apiKey, apiSecret, timestamp: now, canonicalBody: text });
    const headers = { "x-timestamp": String(now), "x-signature": signature };
    await expectCode(
      verifyWebhook({ body: text, headers, apiKey, apiSecret, now }),
      "MALFORMED_BODY",
      /signed but not JSON/,
    );
  });
});

describe("verifyWebhook reads escaped keys right despite V8's JSON.parse bug (nodejs/node#63785)", () => {
  it("returns the key a delivery was signed with after JSON.parse has seen a look-alike object", async () => {
    // The repro: after this parse, V8 reads the key "\u7a3c" of an object of the same shape as "\\".
    JSON.parse('{"h":1,"\\\\":2}');
    expect(Object.keys(JSON.parse('{"h":1,"\\u7a3c":2}'))).not.toContain("\u7a3c"); // the platform bug is still there
    const event = { ...payoutInReview, metadata: { ...payoutInReview.metadata, h: 1, "\u7a3c": 2 } };
    const signed = canonicalize(event);
    expect(signed).toContain('"\\u7a3c":2');
    // Another body of the same shape whose key is a backslash, parsed natively first: V8 now misreads the key.
    const lookAlike = signed.replace('"\\u7a3c"', '"\\\\"');
    expect(Object.keys(JSON.parse(lookAlike).metadata)).toContain("\\");
    expect(Object.keys(JSON.parse(signed).metadata)).not.toContain("\u7a3c"); // what a native parse returns now
    const received = await verifyWebhook({ body: signed, headers: await signText(signed), apiKey, apiSecret, now });
    expect(received.metadata).toEqual({ ...payoutInReview.metadata, h: 1, "\u7a3c": 2 });
    expect(Object.keys(received.metadata)).not.toContain("\\");
  });

  it("keeps a __proto__ key of an escaped body as an own property, as JSON.parse does", async () => {
    const signed =
      '{"event":"IN_REVIEW","id":"c4b3a291-8f7e-4d6c-9b5a-4f3e2d1c0b9a","metadata":{"__proto__":{"x":1},"client_reference_id":"a\\u00e9","reason":"Under compliance review"},"timestamp":"2026-03-01T10:55:02Z","type":"PAYOUT"}';
    const received = await verifyWebhook({ body: signed, headers: await signText(signed), apiKey, apiSecret, now });
    expect(Object.hasOwn(received.metadata, "__proto__")).toBe(true);
    expect(received.metadata).toEqual(JSON.parse(signed).metadata);
    expect((received.metadata as { client_reference_id: string }).client_reference_id).toBe("a\u00e9");
  });
});

describe("verifyWebhook checks in order", () => {
  it("headers before anything else", async () => {
    await expectCode(
      verifyWebhook({ body: "not json", headers: { "x-timestamp": "1" }, apiKey, apiSecret, now }),
      "MISSING_HEADER",
    );
  });

  it("the timestamp before the signature", async () => {
    const headers = { "x-timestamp": String(now - 1000), "x-signature": "a3".repeat(32) };
    await expectCode(verifyWebhook({ body, headers, apiKey, apiSecret, now }), "TIMESTAMP_OUT_OF_TOLERANCE");
  });

  it("the signature before the body is parsed", async () => {
    const headers = await signText(body);
    await expectCode(verifyWebhook({ body: "{not json", headers, apiKey, apiSecret, now }), "INVALID_SIGNATURE");
  });
});

describe("verifyWebhook refuses a bad configuration with a TypeError", () => {
  it("an empty apiSecret", async () => {
    const headers = await signText(body);
    await expect(verifyWebhook({ body, headers, apiKey, apiSecret: "", now })).rejects.toThrow(TypeError);
  });

  it("both apiKey and credentials, or an empty credentials list", async () => {
    const headers = await signText(body);
    const both = { body, headers, apiKey, apiSecret, credentials: [{ apiKey, apiSecret }], now } as never;
    await expect(verifyWebhook(both)).rejects.toThrow(
      /apiKey and apiSecret, or a non-empty credentials array, not both/,
    );
    await expect(verifyWebhook({ body, headers, credentials: [], now })).rejects.toThrow(/non-empty credentials array/);
  });

  it("now in milliseconds, or a negative tolerance", async () => {
    const headers = await signText(body);
    await expect(verifyWebhook({ body, headers, apiKey, apiSecret, now: now * 1000 })).rejects.toThrow(/seconds/);
    await expect(verifyWebhook({ body, headers, apiKey, apiSecret, now, toleranceSeconds: -1 })).rejects.toThrow(
      /toleranceSeconds/,
    );
  });
});
