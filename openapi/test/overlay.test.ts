// The published contract states the service alone; the sandbox's spec is the published one with the sandbox's
// OpenAPI Overlay (overlays/sandbox.yaml) applied by openapi-format, at build time.
import { describe, expect, it } from "vitest";
import { applySandboxOverlay, readSandboxOverlay, UnusedOverlayActionError } from "../scripts/overlay.ts";
import { readSandboxSpec, readSpec } from "../src/index.js";

type Json = Record<string, any>;

/** Every object key of a document, with the JSON pointer of the object holding it. */
function keysIn(value: unknown, at = "", found: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) keysIn(item, `${at}/${i}`, found);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      found.push([at, key]);
      keysIn(inner, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, found);
    }
  }
  return found;
}

/** The JSON pointers of the strings that mention the sandbox. */
function sandboxMentions(value: unknown, at = "", found: string[] = []): string[] {
  if (typeof value === "string" && /sandbox/i.test(value)) found.push(at);
  else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) sandboxMentions(item, `${at}/${i}`, found);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) sandboxMentions(inner, `${at}/${key}`, found);
  }
  return found;
}

const webhookUrl = (doc: Json) =>
  doc.paths["/org/api/v1/organizations/api-webhooks"].post.requestBody.content["application/json"].schema.properties
    .webhook_url;

describe("the published contract", () => {
  it("holds no x-sandbox key", () => {
    expect(keysIn(readSpec()).filter(([, key]) => key.startsWith("x-sandbox"))).toEqual([]);
  });

  it("mentions a sandbox only where the document does: the service's own sandbox environment", () => {
    // L3 and L24 of the document: "the sandbox and production environments each have their own".
    expect(sandboxMentions(readSpec())).toEqual([
      "/info/description",
      "/servers/0/description",
      "/servers/0/variables/base_url/description",
    ]);
  });

  it("requires an https:// webhook URL, as the service does", () => {
    const pattern = new RegExp(webhookUrl(readSpec()).pattern);
    expect(pattern.test("https://hooks.example.in/events")).toBe(true);
    expect(pattern.test("http://127.0.0.1:3000/webhooks")).toBe(false);
  });
});

describe("the sandbox's spec", () => {
  it("is the published contract with the sandbox's overlay applied", async () => {
    expect(readSandboxSpec()).toEqual(await applySandboxOverlay(readSpec()));
  });

  it("is an OpenAPI Overlay 1.0 document whose every action says what it is for", async () => {
    const overlay = await readSandboxOverlay();
    expect(overlay.overlay).toBe("1.0.0");
    for (const action of overlay.actions as Json[]) expect(action.description, action.target).toMatch(/^The sandbox: /);
  });

  it("also takes an http:// webhook URL on the loopback interface, and no other http:// URL", () => {
    const pattern = new RegExp(webhookUrl(readSandboxSpec()).pattern);
    for (const url of [
      "https://hooks.example.in/events",
      "http://127.0.0.1:3000/webhooks",
      "http://localhost/x",
      "http://[::1]:8080/",
    ])
      expect(pattern.test(url), url).toBe(true);
    for (const url of ["http://hooks.example.in/events", "http://127.0.0.1.example.in/", "ftp://127.0.0.1/"])
      expect(pattern.test(url), url).toBe(false);
  });

  it("names the members the sandbox requires where the interface leaves them open", () => {
    const body = readSandboxSpec().paths["/cms/api/v1/customer/create"]?.post as Json;
    expect(body.requestBody.content["application/json"].schema["x-sandbox-required"]).toEqual(["alpha_3_country_code"]);
  });
});

describe("applying the sandbox's overlay", () => {
  it("refuses an overlay with an action that matches nothing, naming its target", async () => {
    const overlay = {
      overlay: "1.0.0",
      info: { title: "t", version: "1" },
      actions: [{ target: "$.paths['/no/such/path'].get", update: { description: "x" } }],
    };
    const attempt = applySandboxOverlay(readSpec(), overlay);
    await expect(attempt).rejects.toThrow(UnusedOverlayActionError);
    await expect(applySandboxOverlay(readSpec(), overlay)).rejects.toThrow("/no/such/path");
  });

  it("leaves the document it is given unchanged", async () => {
    const published = readSpec();
    const before = JSON.stringify(published);
    await applySandboxOverlay(published);
    expect(JSON.stringify(published)).toBe(before);
  });
});
