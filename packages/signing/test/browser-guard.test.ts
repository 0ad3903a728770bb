import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signRequestSync } from "../src/node.js";
import { credentials, entries } from "./entries.js";

const g = globalThis as { window?: unknown; document?: unknown };

function pretendBrowser(): void {
  g.window = globalThis;
  g.document = {};
}

afterEach(() => {
  delete g.window;
  delete g.document;
});

describe.each(entries)("the browser guard, %s", (_name, lib) => {
  beforeEach(pretendBrowser);
  const timestamp = 1700000000;

  it("refuses to sign where window and document exist, explaining why", async () => {
    await expect(lib.signRequest({ ...credentials, body: {} })).rejects.toThrow(
      /the API secret must never be in a browser.*dangerouslyAllowBrowser: true/s,
    );
  });

  it("signs when the caller passes dangerouslyAllowBrowser: true", async () => {
    const r = await lib.signRequest({ ...credentials, timestamp, dangerouslyAllowBrowser: true });
    expect(r.headers["X-TIMESTAMP"]).toBe("1700000000");
  });

  it("also guards computeSignature and verifySignature, which hold the secret too", async () => {
    const options = { ...credentials, timestamp, canonicalBody: "{}" };
    await expect(lib.computeSignature(options)).rejects.toThrow(/browser/);
    await expect(lib.verifySignature({ ...options, signature: "x" })).rejects.toThrow(/browser/);
  });

  it("does not trigger on window alone, without document", async () => {
    delete g.document;
    await expect(lib.signRequest({ ...credentials, timestamp })).resolves.toBeDefined();
  });
});

describe("the browser guard on import", () => {
  beforeEach(pretendBrowser);

  it("never throws when the package is imported in a browser", async () => {
    vi.resetModules();
    await expect(import("../src/index.js")).resolves.toHaveProperty("signRequest");
    await expect(import("../src/node.js")).resolves.toHaveProperty("signRequestSync");
  });

  it("guards the synchronous variant too", () => {
    expect(() => signRequestSync({ ...credentials })).toThrow(/browser/);
  });
});
