// Commands are imported when asked for: the help loads no command nor the sandbox, and node:sqlite is loaded only
// when a sandbox opens its database. Watched in a child process through a module resolve hook on the built cli.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { meetsNodeRange } from "../src/node-range.js";
import { unsupportedNodeMessage } from "../src/sandbox-runtime.js";
import { runChild } from "./support/child.js";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
/** Prints "LOADED <url>" on stderr for node:sqlite, every module of the sandbox package and of a command. */
const WATCH = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url === "node:sqlite" || resolved.url.includes("/packages/sandbox/") || (resolved.url.includes("/commands/") && !resolved.url.endsWith("/commands/table.js")))
      process.stderr.write("LOADED " + resolved.url + "\\n");
    return resolved;
  },
});`)}`;

async function loadedBy(args: string[]): Promise<string[]> {
  const { stderr } = await runChild(process.execPath, ["--import", WATCH, bin, ...args], {
    EXCHANGE_API_KEY: "k",
    EXCHANGE_API_SECRET: "s",
  });
  return stderr
    .split("\n")
    .filter((l) => l.startsWith("LOADED "))
    .map((l) => l.slice("LOADED ".length));
}

describe("loading commands", () => {
  it("--help loads no command module and not the sandbox", async () => {
    expect(await loadedBy(["--help"])).toEqual([]);
  });

  it("sandbox --help loads the sandbox command's module (and the sandbox's fault kinds), not node:sqlite", async () => {
    const loaded = await loadedBy(["sandbox", "--help"]);
    expect(loaded.some((url) => url.endsWith("/commands/sandbox.js"))).toBe(true);
    expect(loaded).not.toContain("node:sqlite");
  });

  it("sign loads its own module only", async () => {
    const loaded = await loadedBy(["sign", "--body", "{}"]);
    expect(loaded.filter((url) => url.includes("/commands/"))).toEqual([
      expect.stringMatching(/\/commands\/sign\.js$/),
    ]);
    expect(loaded.some((url) => url.includes("/packages/sandbox/"))).toBe(false);
  });
});

describe("the Node a command needs", () => {
  it.each([
    ["20.20.2", ">=22.13", false],
    ["22.12.0", ">=22.13", false],
    ["22.13.0", ">=22.13", true],
    ["24.1.0", ">=22", true],
    ["21.9.0", ">=22", false],
    ["20.19.0", ">=20.19.0", true],
    ["20.0.0", "^20 || >=22", true],
  ])("Node %s meets %s: %s", (version, range, expected) => {
    expect(meetsNodeRange(version, range)).toBe(expected);
  });

  it("says in one line which Node the sandbox needs and which this is", () => {
    expect(unsupportedNodeMessage("sandbox", "20.20.2", ">=22.13")).toBe(
      "exchange-kit sandbox needs Node >=22.13 (the sandbox stores its state with node:sqlite); this is Node 20.20.2. The other commands run on Node 20.19 or later.",
    );
  });

  it("says nothing on a Node that meets the range", () => {
    expect(unsupportedNodeMessage("demo", "24.21.0", ">=22.13")).toBeUndefined();
  });
});
