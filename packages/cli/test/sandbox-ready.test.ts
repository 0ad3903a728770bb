// The sandbox's ready output: one ready line, then the export line a person pastes into the shell of their app,
// with exactly the variables the client and the cli read. --verbose logs each request with its err_code.
import { createExchangeClient } from "@exchange-kit/client";
import { describe, expect, it } from "vitest";
import { exportLine, shellWord } from "../src/shell-exports.js";
import { run } from "./run.js";

/** The variables of an `export A=b C=d` line (values without quotes). */
function exported(line: string): Record<string, string> {
  const words = line
    .trim()
    .replace(/\s+#.*$/, "")
    .split(/\s+/);
  expect(words[0]).toBe("export");
  return Object.fromEntries(words.slice(1).map((w) => w.split("=", 2) as [string, string]));
}

describe("the export line", () => {
  it.each([
    ["http://127.0.0.1:4020", "http://127.0.0.1:4020"],
    ["sbx_AbC-123.x", "sbx_AbC-123.x"],
    ["http://[::1]:4020", "'http://[::1]:4020'"],
    ["it's", "'it'\\''s'"],
    ["a b", "'a b'"],
  ])("writes %s as the shell word %s", (value, word) => {
    expect(shellWord(value)).toBe(word);
  });

  it("leaves out the variables it has no value for", () => {
    expect(
      exportLine({ EXCHANGE_BASE_URL: "http://127.0.0.1:1", EXCHANGE_API_KEY: "k", EXCHANGE_API_SECRET: undefined }),
    ).toBe("export EXCHANGE_BASE_URL=http://127.0.0.1:1 EXCHANGE_API_KEY=k");
  });
});

describe("exchange-kit sandbox, ready", () => {
  it("prints the generated credentials as an export line a client started with them can use", async () => {
    const sandbox = run(["sandbox", "--port", "0"], {});
    try {
      const [ready, line] = (await sandbox.waitFor("export ")).split("\n");
      const variables = exported(line!);
      expect(Object.keys(variables)).toEqual(["EXCHANGE_BASE_URL", "EXCHANGE_API_KEY", "EXCHANGE_API_SECRET"]);
      expect(ready).toBe(
        `sandbox ready at ${variables.EXCHANGE_BASE_URL} (API key ${variables.EXCHANGE_API_KEY}, generated secret ${variables.EXCHANGE_API_SECRET})` +
          `; dashboard ${variables.EXCHANGE_BASE_URL}/_dashboard/#token=${/token=([\w-]+)/.exec(ready!)?.[1]}`,
      );
      // What the quick start does after pasting the line: the client reads the three variables.
      const client = createExchangeClient({
        baseUrl: variables.EXCHANGE_BASE_URL,
        apiKey: variables.EXCHANGE_API_KEY,
        apiSecret: variables.EXCHANGE_API_SECRET,
        maxRetries: 0,
      });
      expect((await client.customers.list()).count).toBe(0);
    } finally {
      sandbox.stop();
      await sandbox.code;
    }
  });

  it("never prints a given secret: the export line says where it is", async () => {
    const sandbox = run(["sandbox", "--port", "0", "--api-key", "ek_given", "--api-secret", "ek_given_secret"], {});
    try {
      const line = (await sandbox.waitFor("export ")).split("\n")[1]!;
      expect(line).toMatch(
        /^ {2}export EXCHANGE_BASE_URL=http:\/\/127\.0\.0\.1:\d+ EXCHANGE_API_KEY=ek_given {3}# EXCHANGE_API_SECRET: the secret it was started with$/,
      );
      expect(sandbox.stdout()).not.toContain("ek_given_secret");
    } finally {
      sandbox.stop();
      await sandbox.code;
    }
  });

  it("adds the client's environment to the --json ready object, keeping its other members", async () => {
    const sandbox = run(["sandbox", "--port", "0", "--json"], {
      EXCHANGE_API_KEY: "ek_j",
      EXCHANGE_API_SECRET: "ek_j_s",
    });
    try {
      const ready = JSON.parse((await sandbox.waitFor("\n")).split("\n")[0]!);
      expect(ready).toEqual({
        ready: true,
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        apiKey: "ek_j",
        organizations: ["ek_j"],
        dashboard: [
          { name: "Default organization", apiKey: "ek_j", url: expect.stringMatching(/\/_dashboard\/#token=[\w-]+$/) },
        ],
        env: { EXCHANGE_BASE_URL: ready.url, EXCHANGE_API_KEY: "ek_j" },
      });
    } finally {
      sandbox.stop();
      await sandbox.code;
    }
  });

  it("prints one ready line with --verbose, and logs each request with its err_code", async () => {
    const sandbox = run(["sandbox", "--port", "0", "--verbose"], {});
    try {
      const variables = exported((await sandbox.waitFor("export ")).split("\n")[1]!);
      const client = createExchangeClient({
        baseUrl: variables.EXCHANGE_BASE_URL,
        apiKey: variables.EXCHANGE_API_KEY,
        apiSecret: "not-the-secret",
        maxRetries: 0,
      });
      await expect(client.customers.list()).rejects.toThrow();
      await fetch(`${variables.EXCHANGE_BASE_URL}/no/such/path`);
      await sandbox.waitForStderr("GET /cms/api/v1/customer/list 401 AUTH_INVALID_SIGNATURE\n");
      await sandbox.waitForStderr("GET /no/such/path 404 NOT_FOUND\n");
      expect(sandbox.stdout().match(/sandbox ready/g)).toHaveLength(1);
      expect(sandbox.stderr()).not.toContain("listening");
    } finally {
      sandbox.stop();
      await sandbox.code;
    }
  });
});
