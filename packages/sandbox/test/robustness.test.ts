import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { Api, sign, startSandbox } from "./helpers.js";

describe("bad input", () => {
  it("answers every kind of bad input with the envelope and keeps serving", async () => {
    const sandbox = await startSandbox();
    const api = new Api(sandbox);
    const malformed = await api.post("/cms/api/v1/customer/create", undefined, {
      rawBody: '{"client_reference_id": "x",',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      status: false,
      data: null,
      err_code: "INPUT_MALFORMED",
      message: "Malformed JSON body",
    });

    const array = await api.post("/cms/api/v1/customer/create", undefined, { rawBody: "[1,2]" });
    expect(array.body.err_code).toBe("INPUT_MALFORMED");

    const wrongTypes = await api.post("/cms/api/v1/customer/create", {
      client_reference_id: 42,
      full_name: ["x"],
      alpha_3_country_code: "IND",
    });
    expect(wrongTypes.body.err_code).toBe("INPUT_MALFORMED");
    expect(Object.keys(wrongTypes.body.errors).sort()).toEqual(["client_reference_id", "full_name"]);

    const huge = await api.post("/cms/api/v1/customer/create", undefined, {
      rawBody: `{"pad":"${"x".repeat(2 * 1024 * 1024)}"}`,
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({
      status: false,
      err_code: "INPUT_MALFORMED",
      message: expect.stringContaining("too large"),
    });

    const unknown = await api.get("/cms/api/v2/customer/list");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, data: null, err_code: "NOT_FOUND" });

    const wrongMethod = await api.request("PUT", "/cms/api/v1/customer/create", { body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.err_code).toBe("UNKNOWN_ERROR");
    expect(wrongMethod.body.errors).toEqual({ method: ["Use POST."] });
    expect(wrongMethod.headers.allow).toBe("POST");

    const badUtf8 = await api.post("/cms/api/v1/customer/create", undefined, {
      rawBody: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(badUtf8.body.err_code).toBe("INPUT_MALFORMED");

    const badPath = await api.get("/cms/api/v1/customer/%E0%A4%A");
    expect(badPath.status).toBe(400);

    const ok = await api.post("/cms/api/v1/customer/create", {
      client_reference_id: "still-alive",
      full_name: "Asha Verma",
      alpha_3_country_code: "IND",
    });
    expect(ok.status).toBe(200);
  });

  it("answers 413 from the Content-Length alone for a body over the configured limit", async () => {
    const sandbox = await startSandbox({ bodyLimitBytes: 1000 });
    const api = new Api(sandbox);
    const body = JSON.stringify({ client_reference_id: "x".repeat(1200), full_name: "A", alpha_3_country_code: "IND" });
    const res = await api.post("/cms/api/v1/customer/create", undefined, { rawBody: body });
    expect(res.status).toBe(413);
    expect(res.body.errors.non_field_errors[0]).toContain("1000 bytes");
  });

  it("refuses a body with non-ASCII characters sent as raw UTF-8 and signed over those bytes, as production does (not canonical)", async () => {
    const api = new Api(await startSandbox());
    const raw = Buffer.from('{"alpha_3_country_code":"DEU","client_reference_id":"utf8","full_name":"Jürgen"}', "utf8");
    const ts = Math.floor(Date.now() / 1000);
    const res = await api.post("/cms/api/v1/customer/create", undefined, {
      rawBody: raw,
      sign: false,
      headers: { "X-API-KEY": api.org.apiKey, "X-TIMESTAMP": String(ts), "X-SIGNATURE": sign(api.org, ts, raw) },
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain("must be sent exactly as the canonical string that was signed");
  });

  it("accepts non-ASCII characters sent escaped in the canonical body", async () => {
    const api = new Api(await startSandbox());
    const res = await api.post("/cms/api/v1/customer/create", undefined, {
      rawBody: '{"alpha_3_country_code":"DEU","client_reference_id":"utf8","full_name":"J\\u00fcrgen"}',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.full_name).toBe("Jürgen");
  });

  it("answers a request that is not valid HTTP with the envelope, and keeps serving", async () => {
    const sandbox = await startSandbox();
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(sandbox.port, "127.0.0.1", () => socket.write("GARBAGE / NOT-HTTP\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));
    expect(body).toMatchObject({ status: false, data: null, err_code: "INPUT_MALFORMED" });
    const api = new Api(sandbox);
    expect((await api.get("/cms/api/v1/customer/list")).status).toBe(200);
  });
});
