import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../src/version.js";
import { packageRoot } from "./support/spec.js";

describe("version", () => {
  it("sends the version of package.json in the default User-Agent", () => {
    const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
