// A delivery attempt keeps what the receiver answered, as Stripe and Svix show it: the status, the latency and
// the first 1 KB of the body as text, with the organization's secret and the attempt's signature taken out in
// every form a receiver could echo them (a secret straddling the cut leaves no part of itself).
import { describe, expect, it } from "vitest";
import { answerWindow, keptResponseBody, RESPONSE_BODY_LIMIT } from "../../src/webhooks/receiver-answer.js";
import { Api, createCustomer, kycBody, startReceiver, startSandbox, waitFor } from "../helpers.js";

const REGISTER = "/org/api/v1/organizations/api-webhooks";
const SECRET = 's3cr3t-é"\\-value';

describe("the body an attempt keeps", () => {
  it.each<[string, string, number, string]>([
    ["a short text, whole", "ok", 2, "ok"],
    ["an empty answer, empty", "", 0, ""],
    ["the secret as it is, redacted", `bad ${SECRET}`, 20, "bad [redacted]"],
    ["the secret as JSON writes it, redacted", `{"s":${JSON.stringify(SECRET)}}`, 30, '{"s":"[redacted]"}'],
    [
      "the secret with non-ASCII escaped as \\u, redacted",
      `{"s":"s3cr3t-\\u00e9\\"\\\\-value"}`,
      30,
      '{"s":"[redacted]"}',
    ],
  ])("%s", (_name, body, total, kept) => {
    expect(keptResponseBody(Buffer.from(body), total, [SECRET])).toBe(kept);
  });

  it("cuts a long answer at 1 KB and says how long it was", () => {
    const body = "a".repeat(3000);
    expect(keptResponseBody(Buffer.from(body), 3000, [SECRET])).toBe(
      `${"a".repeat(RESPONSE_BODY_LIMIT)}… (3000 bytes in all)`,
    );
  });

  it("never cuts a character in two", () => {
    const body = `${"a".repeat(RESPONSE_BODY_LIMIT - 1)}é tail`;
    expect(keptResponseBody(Buffer.from(body), Buffer.byteLength(body), [])).toBe(
      `${"a".repeat(RESPONSE_BODY_LIMIT - 1)}… (${Buffer.byteLength(body)} bytes in all)`,
    );
  });

  it("leaves no part of a secret that straddles the cut", () => {
    const body = `${"a".repeat(RESPONSE_BODY_LIMIT - 12)}${SECRET}${"b".repeat(500)}`;
    const head = Buffer.from(body).subarray(0, answerWindow([SECRET]));
    const kept = keptResponseBody(head, Buffer.byteLength(body), [SECRET]);
    expect(kept).not.toContain("s3cr3t");
    expect(kept.startsWith(`${"a".repeat(RESPONSE_BODY_LIMIT - 12)}[redacted]`.slice(0, RESPONSE_BODY_LIMIT))).toBe(
      true,
    );
  });
});

describe("a delivery attempt's answer, end to end", () => {
  it("keeps the receiver's status, latency and body, in the events the control API lists", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const receiver = await startReceiver(() => ({ status: 401, body: '{"error":"signature mismatch"}' }));
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await createCustomer(api).then((c) => api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(c.id)));
    await waitFor(() => receiver.deliveries.length >= 1, "an attempt");
    await waitFor(async () => (await sandbox.events())[0]?.deliveries[0]?.attempts.length, "the attempt recorded");
    const listed = (await api.ok("GET", "/_sandbox/events")) as unknown as {
      results: Array<{ deliveries: Array<{ attempts: Array<Record<string, unknown>> }> }>;
    };
    const attempt = listed.results[0]!.deliveries[0]!.attempts[0]!;
    expect(attempt).toMatchObject({
      status_code: 401,
      response_body: '{"error":"signature mismatch"}',
      error: "receiver answered 401",
    });
    expect(attempt.duration_ms).toEqual(expect.any(Number));
  });

  it("redacts the organization's secret and the attempt's signature when the receiver echoes them", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const secret = sandbox.organizations[0]!.apiSecret;
    const receiver = await startReceiver((delivery) => ({
      status: 400,
      body: `secret=${secret} signature=${String(delivery.headers["x-signature"])}`,
    }));
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await createCustomer(api).then((c) => api.ok("POST", "/cms/api/v1/kyc/add-kyc-data", kycBody(c.id)));
    const attempt = await waitFor(
      async () => (await sandbox.events())[0]?.deliveries[0]?.attempts[0],
      "the attempt recorded",
    );
    expect(attempt.response_body).toBe("secret=[redacted] signature=[redacted]");
  });
});
