// exchange-kit mcp's own part: its flags, and the HTTP ready line (the server itself is tested in packages/mcp).
import { describe, expect, it } from "vitest";
import { portFlag } from "../src/commands/mcp.js";
import { run } from "./run.js";

const env = {
  EXCHANGE_API_KEY: "ek_mcp_cli_key",
  EXCHANGE_API_SECRET: "ek_mcp_cli_secret",
  EXCHANGE_BASE_URL: "http://127.0.0.1:9",
};

describe("portFlag", () => {
  it.each([
    [undefined, 0],
    ["0", 0],
    ["4930", 4930],
    ["65535", 65535],
  ])("takes %s as port %s", (value, port) => expect(portFlag(value)).toBe(port));

  it.each(["-1", "65536", "80.5", "http"])("refuses %s with the range", (value) =>
    expect(() => portFlag(value)).toThrow("--port must be 0 to 65535"),
  );
});

it("is a usage error without credentials, naming the variables", async () => {
  const cli = run(["mcp"], { EXCHANGE_BASE_URL: env.EXCHANGE_BASE_URL });
  expect(await cli.code).toBe(2);
  expect(cli.stderr()).toContain("set EXCHANGE_API_KEY and EXCHANGE_API_SECRET");
});

it("prints the HTTP endpoint and its token once, and refuses a request without the token", async () => {
  const cli = run(["mcp", "--http", "--port", "0", "--json"], env);
  const ready = JSON.parse((await cli.waitFor("\n", 20_000)).split("\n")[0]!) as {
    url: string;
    token: string;
    sandbox: boolean;
  };
  expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(ready.token.length).toBeGreaterThanOrEqual(32);
  expect(ready.sandbox).toBe(false);
  const refused = await fetch(ready.url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  expect(refused.status).toBe(401);
  cli.stop();
  expect(await cli.code).toBe(0);
  expect(cli.stdout()).not.toContain(env.EXCHANGE_API_SECRET);
});
