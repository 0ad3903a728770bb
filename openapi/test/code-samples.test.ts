import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalize } from "@exchange-kit/signing";
import { describe, expect, it } from "vitest";
import { codeSamples, exampleRequests, type CodeSample } from "../code-samples/samples.ts";
import { applySandboxOverlay } from "../scripts/overlay.ts";
import { loadSpec } from "../spec-diff/load.ts";
import { repoRoot, specRoot } from "./helpers.js";

// The samples run against the sandbox, so they are made from the sandbox's spec (code-samples/generate.ts).
const spec = await applySandboxOverlay(loadSpec(specRoot));
const committed: Record<string, CodeSample[]> = JSON.parse(
  readFileSync(join(repoRoot, "openapi", "code-samples", "generated", "code-samples.json"), "utf8"),
);
const curlSamples = Object.entries(committed).flatMap(([id, list]) =>
  list.filter((s) => s.lang === "curl").map((s) => [`${id}: ${s.label}`, s] as const),
);
const quoted = (source: string, flag: string) => new RegExp(`${flag} '([^']*)'`).exec(source)?.[1];

describe("the code samples of the reference", () => {
  it("are the ones the spec generates today (run `pnpm generate` after an example changes)", () => {
    expect(committed).toEqual(codeSamples(spec));
  });

  it("exist for every operation of the spec", () => {
    const operations = new Set(exampleRequests(spec).map((r) => r.operationId));
    expect(Object.keys(committed).sort()).toEqual([...operations].sort());
  });

  it("say which request example they send: its summary as the first comment of the call", () => {
    const requests = exampleRequests(spec).filter((r) => r.summary !== undefined);
    expect(requests.length).toBeGreaterThan(0);
    for (const req of requests) {
      const list = committed[req.operationId] ?? [];
      const several = list.length > 2;
      const of = (lang: string) =>
        list.find((s) => s.lang === lang && (!several || s.label.endsWith(`(${req.example})`)));
      expect(of("TypeScript")?.source, `${req.operationId} ${req.example}`).toContain(`\n// ${req.summary}\n`);
      expect(of("curl")?.source.startsWith(`# ${req.summary}\n`), `${req.operationId} ${req.example}`).toBe(true);
    }
  });

  it.each(curlSamples)("%s signs and sends the same canonical body", (_name, sample) => {
    const signed = quoted(sample.source, "--body");
    const sent = quoted(sample.source, "--data-raw");
    expect(signed).toBe(sent);
    if (signed === undefined) {
      expect(sample.source).toContain('over "{}" without a body');
      return;
    }
    expect(canonicalize(JSON.parse(signed) as object)).toBe(signed);
    for (const header of ["X-API-KEY", "X-TIMESTAMP", "X-SIGNATURE"])
      expect(sample.source).toContain(`-H "${header}: `);
    expect(sample.source).toMatch(/^exchange-kit sign --method (POST|PATCH|PUT) --url "\$EXCHANGE_BASE_URL\//m);
  });
});
