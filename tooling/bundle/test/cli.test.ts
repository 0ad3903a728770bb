import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "exchange-kit-bundle-"));

beforeAll(() => {
  cpSync(fileURLToPath(new URL("fixture", import.meta.url)), dir, { recursive: true });
  // Run from the fixture's copy: the bundler reads ./package.json and writes ./dist of the current directory.
  execFileSync(process.execPath, [cli], { cwd: dir, env: { ...process.env, NODE_PATH: "" }, encoding: "utf8" });
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("exchange-kit-bundle on a package with two entries that share a class", () => {
  it("writes one module per entry and the shared code once, in dist/chunks", () => {
    expect(readdirSync(join(dir, "dist")).sort()).toEqual(["chunks", "index.js", "node.js"]);
    expect(readdirSync(join(dir, "dist", "chunks"))).toHaveLength(1);
  });

  it("keeps one class for both entries, so instanceof holds whichever entry a user imports", async () => {
    const index = await import(pathToFileURL(join(dir, "dist", "index.js")).href);
    const node = await import(pathToFileURL(join(dir, "dist", "node.js")).href);
    expect(index.SharedError).toBe(node.SharedError);
    expect(new node.SharedError("x")).toBeInstanceOf(index.SharedError);
    expect(new index.SharedError("x").name).toBe("SharedError");
  });

  it("leaves node: built-ins as imports and runs them", async () => {
    const node = await import(pathToFileURL(join(dir, "dist", "node.js")).href);
    expect(node.entry).toBe("node");
    expect(node.digest("a").slice(0, 8)).toBe("ca978112");
  });
});
