import { describe, expect, it } from "vitest";
import { Api, canonical, sign, startSandbox } from "./helpers.js";

describe("authentication", () => {
  it("answers 401 AUTH_MISSING_HEADERS when a signature header is missing", async () => {
    const api = new Api(await startSandbox());
    const res = await api.get("/cms/api/v1/customer/list", { sign: false, headers: { "X-API-KEY": api.org.apiKey } });
    expect(res.status).toBe(401);
    expect(res.body.err_code).toBe("AUTH_MISSING_HEADERS");
    expect(Object.keys(res.body.errors)).toEqual(["X-TIMESTAMP", "X-SIGNATURE"]);
  });

  it("answers 401 AUTH_INVALID_SIGNATURE for a wrong signature", async () => {
    const api = new Api(await startSandbox());
    const res = await api.get("/cms/api/v1/customer/list", { headers: { "X-SIGNATURE": "AAAA" } });
    expect(res.status).toBe(401);
    expect(res.body.err_code).toBe("AUTH_INVALID_SIGNATURE");
  });

  it("answers 401 AUTH_INVALID_SIGNATURE when the timestamp is more than 300 seconds away", async () => {
    const api = new Api(await startSandbox());
    // 310, not 301: the second may turn between signing and checking, and a test must not race the clock.
    const stale = await api.get("/cms/api/v1/customer/list", { timestamp: Math.floor(Date.now() / 1000) - 310 });
    expect(stale.status).toBe(401);
    expect(stale.body.err_code).toBe("AUTH_INVALID_SIGNATURE");
    const future = await api.get("/cms/api/v1/customer/list", { timestamp: Math.floor(Date.now() / 1000) + 310 });
    expect(future.body.err_code).toBe("AUTH_INVALID_SIGNATURE");
    const edge = await api.get("/cms/api/v1/customer/list", { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect(edge.status).toBe(200);
  });

  it("answers 401 AUTH_UNAUTHORIZED for an unknown key", async () => {
    const api = new Api(await startSandbox()).as({ apiKey: "unknown", apiSecret: "whatever" });
    const res = await api.get("/cms/api/v1/customer/list");
    expect(res.status).toBe(401);
    expect(res.body.err_code).toBe("AUTH_UNAUTHORIZED");
  });

  it("verifies the signature over the body bytes exactly as received", async () => {
    const api = new Api(await startSandbox());
    const body = { client_reference_id: "raw-1", full_name: "Zoë Ärmel", alpha_3_country_code: "DEU" };
    const canonicalText = canonical(body);
    expect(canonicalText).toContain("\\u00eb");
    const ok = await api.post("/cms/api/v1/customer/create", undefined, { rawBody: canonicalText });
    expect(ok.status).toBe(200);
    expect(ok.body.data.full_name).toBe("Zoë Ärmel");
    // The same JSON with whitespace is a different byte string: signing the canonical text but sending this fails.
    const pretty = JSON.stringify(body, null, 2);
    const ts = Math.floor(Date.now() / 1000);
    const res = await api.post("/cms/api/v1/customer/create", undefined, {
      rawBody: pretty,
      sign: false,
      headers: {
        "X-API-KEY": api.org.apiKey,
        "X-TIMESTAMP": String(ts),
        "X-SIGNATURE": sign(api.org, ts, canonicalText),
      },
    });
    expect(res.body.err_code).toBe("AUTH_INVALID_SIGNATURE");
  });

  it("signs {} for a request without a body", async () => {
    const api = new Api(await startSandbox());
    const ts = Math.floor(Date.now() / 1000);
    const res = await api.get("/cms/api/v1/customer/list", {
      sign: false,
      headers: { "X-API-KEY": api.org.apiKey, "X-TIMESTAMP": String(ts), "X-SIGNATURE": sign(api.org, ts, "{}") },
    });
    expect(res.status).toBe(200);
  });

  it("accepts requests signed by the signing package", async () => {
    const { signRequest } = await import("@exchange-kit/signing");
    const sandbox = await startSandbox();
    const org = sandbox.organizations[0]!;
    const signed = await signRequest({
      apiKey: org.apiKey,
      apiSecret: org.apiSecret,
      body: { client_reference_id: "pkg-1", full_name: "Ravi Kumar", alpha_3_country_code: "IND" },
    });
    const res = await fetch(`${sandbox.url}/cms/api/v1/customer/create`, {
      method: "POST",
      headers: signed.headers,
      body: signed.body,
    });
    expect(res.status).toBe(200);
  });
});
