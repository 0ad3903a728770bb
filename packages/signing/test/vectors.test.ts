import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hasPython } from "./python.js";
import table from "./vectors.json" with { type: "json" };

// The reference vectors, against the built package as published, in this
// Node process. test/runtimes.test.ts runs them on Node 24, Deno and Bun.
// The built entries are loaded by URL and typed by their sources, so type-checking needs no build.
const nodeEntry: typeof import("../src/node.js") = await import(new URL("../dist/node.js", import.meta.url).href);
const webEntry: typeof import("../src/index.js") = await import(new URL("../dist/index.js", import.meta.url).href);
const { apiKey, apiSecret, timestamp } = table;
const base = { apiKey, apiSecret, timestamp };

describe.each([
  ["the node entry (dist/node.js)", nodeEntry],
  ["the web entry (dist/index.js, Web Crypto)", webEntry],
] as const)("reference vectors through %s", (_entry, lib) => {
  describe.each(table.vectors)("$name", (v) => {
    it("canonicalizeText gives the canonical body", () => {
      expect(lib.canonicalizeText(v.input)).toBe(v.canonical);
    });

    // Vectors with integers beyond 2^53 or literals like 1.0 only exist as text in JavaScript.
    if (v.viaJsonParse) {
      it("canonicalize of the parsed value gives the canonical body", () => {
        expect(lib.canonicalize(JSON.parse(v.input))).toBe(v.canonical);
      });
    }

    it("computeSignature gives the reference signature", async () => {
      expect(await lib.computeSignature({ ...base, canonicalBody: v.canonical })).toBe(v.signature);
    });

    it("verifySignature accepts the reference signature", async () => {
      const ok = await lib.verifySignature({
        ...base,
        canonicalBody: v.canonical,
        signature: v.signature,
        now: timestamp,
      });
      expect(ok).toBe(true);
    });

    const value: unknown = v.viaJsonParse ? JSON.parse(v.input) : undefined;
    if (v.method === "GET") {
      it("signRequest without a body sends none, with the reference signature", async () => {
        const r = await lib.signRequest(base);
        expect(r.body).toBeUndefined();
        expect(r.headers["X-SIGNATURE"]).toBe(v.signature);
      });
    } else if (typeof value === "object" && value !== null) {
      it("signRequest sends the canonical body with the reference signature", async () => {
        const r = await lib.signRequest({ ...base, body: value });
        expect(r.body).toBe(v.canonical);
        expect(r.headers["X-SIGNATURE"]).toBe(v.signature);
      });
    }
  });
});

describe.skipIf(!hasPython)("the vector table", () => {
  it("is exactly what test/make_vectors.py writes", () => {
    const out = join(mkdtempSync(join(tmpdir(), "vectors-")), "vectors.json");
    const script = fileURLToPath(new URL("./make_vectors.py", import.meta.url));
    expect(spawnSync("python3", [script, out]).status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(new URL("./vectors.json", import.meta.url), "utf8"));
  });
});
