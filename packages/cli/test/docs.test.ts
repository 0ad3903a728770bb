// exchange-kit docs: the reference and the guides from the installed @exchange-kit/openapi, served offline on
// 127.0.0.1; nothing outside its pages is served.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsFile } from "../src/commands/docs.js";
import { type Captured, run } from "./run.js";

describe("docsFile", () => {
  const root = mkdtempSync(join(tmpdir(), "docs-root-"));
  mkdirSync(join(root, "guides"));
  writeFileSync(join(root, "index.html"), "reference");
  writeFileSync(join(root, "guides", "index.html"), "guides");
  writeFileSync(join(root, "guides", "webhooks.html"), "webhooks");
  writeFileSync(join(root, "notes.txt"), "not a page");

  it.each<[string, string | undefined]>([
    ["/", "index.html"],
    ["/guides/", join("guides", "index.html")],
    ["/guides", join("guides", "index.html")],
    ["/guides/webhooks.html", join("guides", "webhooks.html")],
    ["/guides/webhooks.html?x=1", join("guides", "webhooks.html")],
    ["/guides/missing.html", undefined],
    ["/../package.json", undefined],
    ["/%2e%2e/package.json", undefined],
    ["/guides/..%5c..%5cpackage.json", undefined],
    ["/notes.txt", undefined],
    ["/%E0%A4%A", undefined],
  ])("%s → %s", (path, file) => {
    expect(docsFile(root, path)).toBe(file === undefined ? undefined : join(root, file));
  });
});

describe("exchange-kit docs", () => {
  let cli: Captured;
  let url: string;

  beforeAll(async () => {
    cli = run(["docs", "--port", "0", "--json"]);
    url = JSON.parse((await cli.waitFor("\n")).split("\n")[0]!).url;
  });

  afterAll(async () => {
    cli?.stop();
    await cli?.code;
  });

  it("serves the reference, built from the published spec", async () => {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain("createCustomer");
    expect(html).not.toContain("x-sandbox-required");
  });

  it("serves the sandbox's reference beside it, as its ready line says", async () => {
    const ready = JSON.parse(cli.stdout().split("\n")[0]!);
    expect(ready.sandboxReference).toBe(`${url}sandbox/`);
    const page = await fetch(ready.sandboxReference);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Exchange Service API: the local sandbox");
    expect(html).toContain('href="../index.html"');
  });

  it("serves the getting-started page and every guide the docs index links to", async () => {
    const start = await (await fetch(`${url}guides/getting-started.html`)).text();
    expect(start).toContain("Getting started");
    const index = await (await fetch(`${url}guides/index.html`)).text();
    const guides = [...index.matchAll(/href="([\w-]+\.html)"/g)].map((m) => m[1]!);
    expect(guides.length).toBeGreaterThan(8);
    for (const guide of new Set(guides)) expect((await fetch(`${url}guides/${guide}`)).status, guide).toBe(200);
  });

  it("answers 404 for a path outside its pages", async () => {
    expect((await fetch(`${url}..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${url}guides/nothing.html`)).status).toBe(404);
  });
});
