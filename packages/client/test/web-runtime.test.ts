// The client as a Workers/Deno/browser bundler sees it: bundled for a neutral platform, so
// @exchange-kit/signing resolves to its Web Crypto entry and nothing from node: is imported.
import { build } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Client from "../src/index.js";
import { API_KEY, API_SECRET, BASE_URL, CUSTOMER_ID, expectedSignature, fakeFetch, ok } from "./support/fake-fetch.js";
import { packageRoot } from "./support/spec.js";

let dir = "";
let code = "";
let web: typeof Client;

beforeAll(async () => {
  const result = await build({
    entryPoints: [join(packageRoot, "src", "index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    // The workspace packages' sources (their "@exchange-kit/source" export condition), as the tests run them.
    conditions: ["@exchange-kit/source"],
    write: false,
    logLevel: "silent",
  });
  code = result.outputFiles[0]!.text;
  dir = mkdtempSync(join(tmpdir(), "exchange-client-web-"));
  const file = join(dir, "client.mjs");
  writeFileSync(file, code);
  web = (await import(pathToFileURL(file).href)) as typeof Client;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("on Web Crypto runtimes", () => {
  it("bundles without any node: module", () => {
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).toContain("crypto.subtle");
  });

  it("signs with Web Crypto and calls the platform-style fetch", async () => {
    const fake = fakeFetch(() => ok({ id: CUSTOMER_ID }));
    const client = web.createExchangeClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      fetch: fake.fetch,
    });
    await client.customers.create({ client_reference_id: "c-1", alpha_3_country_code: "IND", full_name: "Asha" });
    await client.customers.get(CUSTOMER_ID);
    const [post, get] = fake.calls;
    expect(post!.headers["x-signature"]).toBe(expectedSignature(post!.headers["x-timestamp"]!, post!.body!));
    expect(get!.headers["x-signature"]).toBe(expectedSignature(get!.headers["x-timestamp"]!, "{}"));
  });
});
