// Streamable HTTP: the bearer token, the Origin check, the endpoint; the SDK's Client with the token lists tools.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../src/index.js";
import { hasToken, refusal } from "../src/http.js";
import { connectHttp } from "./support/clients.js";
import { credentials, type Sandbox, startSandbox } from "./support/sandbox.js";

let sandbox: Sandbox;
let http: Awaited<ReturnType<typeof serveHttp>>;

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "curl", version: "1" } },
};

function post(headers: Record<string, string>, path = "/mcp") {
  return fetch(http.url.replace("/mcp", path), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(initialize),
  });
}

beforeAll(async () => {
  sandbox = await startSandbox();
  http = await serveHttp({
    baseUrl: sandbox.url,
    ...credentials,
    token: "a-test-token-of-some-length",
    allowedOrigins: ["http://localhost:5173"],
  });
});

afterAll(async () => {
  await http?.close();
  await sandbox?.close();
});

describe("refusal", () => {
  const token = "t0ken";
  it.each([
    [{ url: "/mcp", method: "POST", headers: { authorization: "Bearer t0ken" } }, undefined],
    [{ url: "/mcp", method: "POST", headers: {} }, 401],
    [{ url: "/mcp", method: "POST", headers: { authorization: "Bearer t0kem" } }, 401],
    [{ url: "/mcp", method: "POST", headers: { authorization: "t0ken" } }, 401],
    [{ url: "/mcp", method: "POST", headers: { authorization: "Bearer t0ken", origin: "https://evil.example" } }, 403],
    [
      { url: "/mcp", method: "POST", headers: { authorization: "Bearer t0ken", origin: "http://localhost:5173" } },
      undefined,
    ],
    [{ url: "/other", method: "POST", headers: { authorization: "Bearer t0ken" } }, 404],
    [{ url: "/mcp", method: "GET", headers: { authorization: "Bearer t0ken" } }, 405],
  ])("%j -> %s", (request, status) => expect(refusal(request, token, ["http://localhost:5173"])?.[0]).toBe(status));

  it("compares tokens of any length without throwing", () => {
    expect(hasToken("Bearer x", "a-much-longer-token")).toBe(false);
    expect(hasToken(undefined, "t")).toBe(false);
  });
});

describe("the HTTP server", () => {
  it("listens on 127.0.0.1 by default", () => expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/));

  it("refuses a request without the token with 401 and a Bearer challenge", async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("refuses a page of another origin, even with the token", async () => {
    const response = await post({ Authorization: `Bearer ${http.token}`, Origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });

  it("answers an allowed origin with the token", async () => {
    const response = await post({ Authorization: `Bearer ${http.token}`, Origin: "http://localhost:5173" });
    expect(response.status).toBe(200);
  });

  it("serves the SDK's Client with the token: the read tools and the sandbox's", async () => {
    const client = await connectHttp(http.url, http.token);
    const { tools } = await client.listTools();
    expect(tools.some((tool) => tool.name === "getCustomer")).toBe(true);
    expect(tools.some((tool) => tool.name === "createCustomer")).toBe(false);
    expect(tools.some((tool) => tool.name === "sandbox_list_requests")).toBe(true);
    await client.close();
  });
});
